// The shell of secret rotation (compile/secret-rotation.ts decides). Without a grace one PUT gives the client its
// new secret (the previous one stops working). With a grace the realm's grace profile and policy are made sure of
// first (they make Keycloak's secret-rotation executor apply to the client), the stamp is written, then Keycloak
// regenerates the secret itself (POST client-secret) and keeps the previous one until the grace ends. The
// credentials Secret is then written with the new one and an Event records it (never the values).
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import { RealmforgeError } from '../../../core/errors.ts';
import type { KubeObject } from '../../compile/kube-object.ts';
import { gracePolicy, keycloakRotated, planRotation } from '../../compile/secret-rotation.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import { clientPolicies, clientProfiles } from '../../keycloak/collections/client-policies.ts';
import { type Item, syncCollection } from '../../keycloak/collections/collection.ts';
import { withClientPolicyDocuments } from '../../keycloak/document-lock.ts';
import type { KeycloakDeps } from '../../keycloak/keycloak-deps.ts';

/** What the rotation step did: the secret to publish when it changed, and when to look again. */
export type RotationResult = {
  secret?: string;
  writes: string[];
  nextInMs?: number;
  announce?: () => Promise<void>;
};

/** Rotates `client`'s secret in Keycloak when it is due or requested; stamps a client that just turned it on. */
export async function rotateSecret(
  deps: KeycloakDeps,
  admin: AdminClient,
  realm: string,
  client: IdentityClient,
  live: { uuid: string; clientId: string; secret?: string; attributes?: Record<string, string> },
): Promise<RotationResult> {
  const plan = planRotation(client, live.attributes ?? {}, deps.clock.now());
  if (plan.action === 'none') return { writes: [], nextInMs: plan.nextInMs };
  const ns = client.metadata.namespace ?? 'default';
  const path = `/${encodeURIComponent(realm)}/clients/${encodeURIComponent(live.uuid)}`;
  const base = { id: live.uuid, clientId: live.clientId };
  if (plan.action === 'stamp') {
    await admin.call(ns, 'PUT', path, { ...base, attributes: plan.attributes });
    return { writes: ['stamp secret age'], nextInMs: plan.nextInMs };
  }
  if (plan.graceSeconds) {
    const writes = await ensureGracePolicy(admin, ns, realm, plan.graceSeconds);
    await admin.call(ns, 'PUT', path, { ...base, attributes: plan.attributes });
    const res = await admin.call<{ value?: string }>(ns, 'POST', `${path}/client-secret`);
    const secret = res.body?.value;
    if (!secret)
      throw new RealmforgeError(
        'transient',
        `Keycloak regenerated the secret of client ${live.clientId} without answering it; the next reconcile reads it`,
      );
    const until = new Date((Math.floor(deps.clock.now() / 1000) + plan.graceSeconds) * 1000).toISOString();
    const announce = () =>
      deps.kube.event(client as unknown as KubeObject, {
        type: 'Normal',
        reason: 'SecretRotated',
        message: `client ${live.clientId}: secret rotated (${plan.why === 'requested' ? 'requested by annotation' : 'scheduled'}) and written to the credentials Secret; the previous secret keeps working until about ${until}`,
      });
    return {
      secret,
      writes: [...writes, `rotate secret (${plan.why}, grace ${plan.graceSeconds}s)`],
      nextInMs: plan.nextInMs,
      announce,
    };
  }
  const secret = deps.newPassword();
  const previous = plan.graceSeconds && live.secret ? live.secret : '';
  const attributes: Record<string, string> = { ...plan.attributes, [keycloakRotated.secret]: previous };
  if (!previous) {
    attributes[keycloakRotated.creation] = '';
    attributes[keycloakRotated.expiration] = '';
  }
  await admin.call(ns, 'PUT', path, { ...base, secret, attributes });
  const until = previous
    ? `; the previous secret keeps working until ${new Date(Number(plan.attributes[keycloakRotated.expiration]) * 1000).toISOString()}`
    : '; the previous secret no longer works';
  const announce = () =>
    deps.kube.event(client as unknown as KubeObject, {
      type: 'Normal',
      reason: 'SecretRotated',
      message: `client ${live.clientId}: secret rotated (${plan.why === 'requested' ? 'requested by annotation' : 'scheduled'}) and written to the credentials Secret${until}`,
    });
  return { secret, writes: [`rotate secret (${plan.why})`], nextInMs: plan.nextInMs, announce };
}

/** Makes sure the realm has the operator's grace profile and policy for `grace` seconds (two reads; a write only
 * when one is missing or was changed). Other profiles and policies are sent back as read. */
async function ensureGracePolicy(admin: AdminClient, ns: string, realm: string, grace: number) {
  return withClientPolicyDocuments(admin, realm, () => writeGracePolicy(admin, ns, realm, grace));
}

async function writeGracePolicy(admin: AdminClient, ns: string, realm: string, grace: number) {
  const { profile, policy } = gracePolicy(grace);
  const mine = { by: 'ledger', managed: new Set([profile.name]) } as const;
  const read = async <T>(path: string) => (await admin.call<T>(ns, 'GET', path)).body;
  const profiles = clientProfiles(realm);
  const policies = clientPolicies(realm);
  const writes: string[] = [];
  const liveProfiles = (await read<{ profiles?: Item[] }>(profiles.listPath))?.profiles ?? [];
  writes.push(...(await syncCollection(admin, ns, profiles, [profile], mine, { live: liveProfiles })).writes);
  const livePolicies = (await read<{ policies?: Item[] }>(policies.listPath))?.policies ?? [];
  writes.push(...(await syncCollection(admin, ns, policies, [policy], mine, { live: livePolicies })).writes);
  return writes;
}
