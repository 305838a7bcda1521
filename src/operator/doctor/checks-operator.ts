// Symptoms "operator pods not starting" and "operator crashes or restarts": the Deployment, each pod's image
// pull, scheduling, OOM kills, restarts and crash loop, and the leader (Lease). An operator run outside the
// cluster (`realmforge dev`, --operator-url) is checked by its /healthz instead.
import type { KubeObject } from '../compile/kube-object.ts';
import { condition, type DoctorCheck, fail, ok, warn } from './check.ts';
import type { Snapshot } from './snapshot.ts';

type ContainerStatus = {
  name: string;
  ready?: boolean;
  restartCount?: number;
  state?: { waiting?: { reason?: string; message?: string } };
  lastState?: { terminated?: { reason?: string; exitCode?: number } };
};

const installFix =
  'kubectl apply --server-side -f dist-manifests/crds/ -f dist-manifests/operator.yaml (or helm install the realmforge-operator chart)';

function podCheck(s: Snapshot, pod: KubeObject): DoctorCheck {
  const subject = `Pod ${pod.metadata.namespace}/${pod.metadata.name}`;
  const status = (pod.status ?? {}) as { phase?: string; containerStatuses?: ContainerStatus[] };
  const logs = `kubectl logs -n ${s.operator.namespace} ${pod.metadata.name} --previous`;
  for (const c of status.containerStatuses ?? []) {
    const waiting = c.state?.waiting?.reason;
    const last = c.lastState?.terminated?.reason;
    if (waiting === 'ErrImagePull' || waiting === 'ImagePullBackOff')
      return fail(
        'operator',
        subject,
        `image pull failure (${waiting})`,
        c.state?.waiting?.message ?? 'the image cannot be pulled',
        'check the image name and tag (image.repository, image.tag) and the pull secret (imagePullSecrets)',
      );
    if (last === 'OOMKilled')
      return fail(
        'operator',
        subject,
        `killed for memory (OOMKilled, ${c.restartCount ?? 0} restarts)`,
        'the container exceeded its memory limit',
        'raise resources.limits.memory of the realmforge-operator chart (default 256Mi)',
      );
    if (waiting === 'CrashLoopBackOff')
      return fail(
        'operator',
        subject,
        `crash loop (${c.restartCount ?? 0} restarts, last exit ${c.lastState?.terminated?.exitCode ?? '?'})`,
        'the operator exits at start: a bad flag or variable, or the API server unreachable',
        `read the reason in its log: ${logs}`,
      );
    if ((c.restartCount ?? 0) > 0)
      return warn(
        'operator',
        subject,
        `running, restarted ${c.restartCount} times${last ? ` (last: ${last})` : ''}`,
        'a restart means a crash, a lost leader lease or a failed liveness probe',
        `read the previous log: ${logs}`,
      );
  }
  const scheduled = condition(pod, 'PodScheduled');
  if (scheduled?.status === 'False')
    return fail(
      'operator',
      subject,
      'not scheduled',
      scheduled.message ?? 'no node fits the pod',
      'free or add capacity, or lower resources.requests of the chart',
    );
  if (status.phase !== 'Running' || condition(pod, 'Ready')?.status !== 'True')
    return fail(
      'operator',
      subject,
      `not ready (phase ${status.phase ?? 'unknown'})`,
      condition(pod, 'Ready')?.message ?? 'the pod is not Ready',
      `kubectl describe pod -n ${s.operator.namespace} ${pod.metadata.name}`,
    );
  return ok('operator', subject, 'running and ready');
}

function leaderCheck(s: Snapshot, deployment: KubeObject): DoctorCheck | undefined {
  type Spec = { template?: { spec?: { containers?: { args?: string[] }[] } } };
  const args = (deployment.spec as Spec | undefined)?.template?.spec?.containers?.[0]?.args ?? [];
  if (!args.includes('--leader-elect') && !args.includes('--leader-elect=true')) return undefined;
  const subject = `Lease ${s.operator.namespace}/${s.operator.deployment}`;
  const holder = (s.lease?.spec as { holderIdentity?: string } | undefined)?.holderIdentity;
  if (!holder)
    return fail(
      'operator',
      subject,
      'no leader',
      'leader election is on and no replica holds the Lease, so nothing reconciles',
      'check that the pods run and that the Role realmforge-leader-election is bound (rbac checks below)',
    );
  if (!s.pods.some((p) => p.metadata.name === holder))
    return warn(
      'operator',
      subject,
      `held by ${holder}, which is not a running pod`,
      'the holder stopped without releasing it; another replica takes over after 15 s',
      'wait 15 s and run doctor again',
    );
  return ok('operator', subject, `leader is ${holder}`);
}

/** The operator's Deployment, pods and leader; or its health when it runs outside the cluster. */
export function checkOperator(s: Snapshot): DoctorCheck[] {
  const op = s.operator;
  if (op.url) {
    const subject = `operator at ${op.url}`;
    const where = `running outside the cluster${op.recordedBy ? `, as recorded by ${op.recordedBy}` : ''}`;
    if (s.health?.ok) return [ok('operator', subject, `${where}; /healthz answers`)];
    return [
      fail(
        'operator',
        subject,
        'not running',
        `its /healthz does not answer: ${s.health?.detail ?? 'not checked'}`,
        'start it: npm start (realmforge dev up), or realmforge run',
      ),
    ];
  }
  const subject = `Deployment ${op.namespace}/${op.deployment}`;
  const d = s.deployment;
  if (!d)
    return [fail('operator', subject, 'not installed', 'the operator Deployment does not exist', installFix)];
  const spec = (d.spec ?? {}) as { replicas?: number };
  const status = (d.status ?? {}) as { availableReplicas?: number };
  const checks: DoctorCheck[] = [];
  if (spec.replicas === 0)
    checks.push(
      fail(
        'operator',
        subject,
        'scaled to 0 replicas: the operator is not running',
        'nothing reconciles IdentityServers, realms or clients',
        `kubectl scale deployment -n ${op.namespace} ${op.deployment} --replicas=1`,
      ),
    );
  else if (!status.availableReplicas)
    checks.push(
      fail(
        'operator',
        subject,
        `no available replica (of ${spec.replicas ?? 1})`,
        s.pods.length
          ? 'its pods are not ready (see below)'
          : 'no pod was created: a missing ServiceAccount, a quota or an admission policy',
        `kubectl describe deployment -n ${op.namespace} ${op.deployment}; kubectl get events -n ${op.namespace}`,
      ),
    );
  else
    checks.push(
      ok('operator', subject, `${status.availableReplicas} of ${spec.replicas ?? 1} replicas available`),
    );
  checks.push(...s.pods.map((p) => podCheck(s, p)));
  const leader = leaderCheck(s, d);
  if (leader) checks.push(leader);
  return checks;
}
