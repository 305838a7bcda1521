// What applying IdentityRealms and IdentityClients would change in a live Keycloak: each resource's own sync run
// through the observing admin (controllers/shared/observe.ts), exactly as an observe-only resource is, with the
// Secrets it names read from the given manifests. A realm of another owner is a conflict; an absent one would be
// created whole.
import type { IdentityClient } from '../../../generated/types/crds/identityclient.ts';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import type { Clock } from '../../core/clock.ts';
import { RealmforgeError } from '../../core/errors.ts';
import type { KubeObject } from '../compile/kube-object.ts';
import { realmNameOf } from '../compile/realm-representation.ts';
import { majorVersion } from '../compile/resolved-server.ts';
import { clientInputs } from '../controllers/identity-client/client-inputs.ts';
import { syncClient } from '../controllers/identity-client/client-sync.ts';
import { federationSecrets } from '../controllers/identity-realm/federation-secrets.ts';
import { smtpPasswordOf } from '../controllers/identity-realm/identity-realm.ts';
import { realmOwnership } from '../controllers/identity-realm/realm-ownership.ts';
import { syncRealm } from '../controllers/identity-realm/realm-sync.ts';
import { type Observation, observeSync } from '../controllers/shared/observe.ts';
import { realmKeyOf } from '../controllers/shared/owner-server.ts';
import type { AdminClient } from '../keycloak/admin-client.ts';
import { readRealm } from '../keycloak/collections/realm.ts';
import type { KeycloakDeps } from '../keycloak/keycloak-deps.ts';
import { serverInfo } from '../keycloak/server-info.ts';
import { documentsKube } from '../runtime/documents-kube.ts';

/** One resource's plan: its changes, or why it cannot be planned. */
export type ResourcePlan = {
  resource: string;
  changes: string[];
  partial?: boolean;
  conflict?: string;
};

const keyOf = (o: KubeObject) => `${o.metadata.namespace ?? 'default'}/${o.metadata.name}`;
const namespace = 'realmforge-plan';

/** The plan of every IdentityRealm and IdentityClient among `objects`, realms first, each in name order. */
export async function planResources(admin: AdminClient, objects: KubeObject[], clock: Clock) {
  const deps = { kube: documentsKube(objects) } as KeycloakDeps;
  const of = <T>(kind: string) =>
    objects.filter((o) => o.kind === kind).sort((a, b) => keyOf(a).localeCompare(keyOf(b))) as unknown as T[];
  const realms = of<IdentityRealm>('IdentityRealm');
  const info = await serverInfo(admin, namespace, clock);
  const version = info.version;
  const out: ResourcePlan[] = [];
  const present = new Map<string, boolean>();
  for (const realm of realms) {
    const resource = `IdentityRealm ${keyOf(realm as unknown as KubeObject)}`;
    const name = realmNameOf(realm);
    const live = await readRealm(admin, namespace, name);
    present.set(keyOf(realm as unknown as KubeObject), Boolean(live));
    const ownership = realmOwnership(realm, live);
    if (ownership.state === 'conflict') {
      out.push({ resource, changes: [], conflict: ownership.message });
      continue;
    }
    if (!live) {
      out.push({ resource, changes: [`create realm ${name}`] });
      continue;
    }
    const inputs = {
      smtpPassword: await smtpPasswordOf(deps, realm),
      federation: await federationSecrets(deps, realm),
      keycloakMajor: majorVersion(version ?? '26'),
      keycloakVersion: version,
      serverInfo: info,
      clock,
    };
    out.push(await plan(resource, () => observeSync(admin, (a) => syncRealm(a, realm, inputs))));
  }
  for (const client of of<IdentityClient>('IdentityClient')) {
    const resource = `IdentityClient ${keyOf(client as unknown as KubeObject)}`;
    const realm = realms.find((r) => keyOf(r as unknown as KubeObject) === realmKeyOf(client));
    if (!realm) {
      out.push({
        resource,
        changes: [],
        conflict: `its IdentityRealm ${realmKeyOf(client)} is not among the files: give it too`,
      });
      continue;
    }
    if (!present.get(realmKeyOf(client))) {
      out.push({ resource, changes: [`create client ${client.spec.clientId ?? client.metadata.name}`] });
      continue;
    }
    const observed = { ...client, spec: { ...client.spec, managementPolicy: 'Observe' as const } };
    const inputs = await clientInputs(deps, client);
    const name = realmNameOf(realm);
    out.push(
      await plan(resource, () => observeSync(admin, (a) => syncClient(a, name, observed, undefined, inputs))),
    );
  }
  return out;
}

/** One resource's plan; a conflict the sync finds (a clientId another owner holds) is that resource's answer. */
async function plan(resource: string, observe: () => Promise<Observation>): Promise<ResourcePlan> {
  try {
    const o = await observe();
    return { resource, changes: o.lines, ...(o.differences.partial ? { partial: true } : {}) };
  } catch (error) {
    if (error instanceof RealmforgeError && error.kind === 'conflict')
      return { resource, changes: [], conflict: error.message };
    throw error;
  }
}

/** The plan as printed: each resource and its changes, then a summary line. */
export function formatPlan(plans: readonly ResourcePlan[]): string {
  const lines: string[] = [];
  for (const p of plans) {
    if (p.conflict) lines.push(`${p.resource}: cannot be planned: ${p.conflict}`);
    else if (!p.changes.length) lines.push(`${p.resource}: no changes`);
    else {
      lines.push(`${p.resource}:`);
      for (const change of p.changes) lines.push(`  ${change}`);
      if (p.partial) lines.push('  ... and more once these are made');
    }
  }
  const count = (verb: string) =>
    plans.flatMap((p) => p.changes).filter((c) => c.startsWith(`${verb} `)).length;
  const total = plans.reduce((n, p) => n + p.changes.length, 0);
  lines.push(
    '',
    total
      ? `Plan: ${count('create')} to create, ${count('update')} to update, ${count('delete')} to delete.`
      : 'No changes: Keycloak matches these resources.',
  );
  return `${lines.join('\n')}\n`;
}
