// Symptom "operator pods not starting" (custom resource definitions not installed): each of the operator's CRDs
// exists and is Established.
import { condition, type DoctorCheck, fail, ok } from './check.ts';
import { operatorCrds, type Snapshot } from './snapshot.ts';

const install =
  'kubectl apply --server-side -f dist-manifests/crds/ (or helm install the realmforge-operator chart)';

/** The operator's three CRDs. */
export function checkCrds(s: Snapshot): DoctorCheck[] {
  const checks = operatorCrds.map((name) => {
    const subject = `CustomResourceDefinition ${name}`;
    const crd = s.crds[name];
    if (!crd)
      return fail(
        'install',
        subject,
        'not installed',
        'the CRD does not exist, so the API server refuses these resources and the operator cannot watch them',
        install,
      );
    if (crd.metadata.deletionTimestamp)
      return fail(
        'install',
        subject,
        'being deleted',
        'the CRD was deleted: the API server is removing every resource of this kind, and refuses new ones',
        `wait until it is gone, then reinstall it: ${install}`,
      );
    const established = condition(crd, 'Established');
    if (established?.status !== 'True')
      return fail(
        'install',
        subject,
        'installed but not Established',
        `Established is ${established?.status ?? 'missing'}${established?.message ? `: ${established.message}` : ''}`,
        `kubectl describe crd ${name}; re-apply it with: ${install}`,
      );
    return ok('install', subject, 'installed and Established');
  });
  return checks;
}
