// `realmforge plan <file|dir>...`: wiring only. What applying the IdentityRealms and IdentityClients among the files
// would change in a live Keycloak (cli/plan.ts), section by section and field by field, secrets as changed and
// never their values. Exit codes as `terraform plan -detailed-exitcode`: 0 nothing to change, 2 changes, 1 a
// resource that cannot be planned (another owner's realm).
import { systemClock } from '../../core/clock.ts';
import { UsageError } from '../../core/errors.ts';
import type { Io } from '../../core/io.ts';
import type { KubeObject } from '../compile/kube-object.ts';
import { createResourceValidator } from '../compile/resource-validator.ts';
import { loadCrdSchemas } from '../runtime/crd-schemas.ts';
import { loadManifests } from '../runtime/load-resources.ts';
import { checkAccessFlags, type KeycloakAccessFlags, withKeycloak } from './keycloak-access.ts';
import { formatPlan, planResources } from './plan.ts';

const planned = new Set(['IdentityRealm', 'IdentityClient']);

export async function runPlan(paths: string[], io: Io, flags: KeycloakAccessFlags): Promise<number> {
  if (!paths.length)
    throw new UsageError(
      'plan needs at least one file or directory: realmforge plan <file|dir>... --keycloak-url <url>',
    );
  if (!flags.keycloakUrl) throw new UsageError('plan needs --keycloak-url: the Keycloak to compare with');
  checkAccessFlags(flags);
  const check = createResourceValidator(loadCrdSchemas());
  const objects: KubeObject[] = [];
  for (const doc of loadManifests(paths)) {
    const object = doc.data as KubeObject;
    if (planned.has(object?.kind)) check(structuredClone(object), doc.source);
    objects.push(object);
  }
  if (!objects.some((o) => planned.has(o?.kind)))
    throw new UsageError(`${paths.join(', ')}: no IdentityRealm or IdentityClient to plan`);
  const plans = await withKeycloak(flags, (admin) => planResources(admin, objects, systemClock));
  io.stdout.write(formatPlan(plans));
  if (plans.some((p) => p.conflict)) return 1;
  return plans.some((p) => p.changes.length) ? 2 : 0;
}
