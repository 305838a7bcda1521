// The shell of secret rotation (compile/secret-rotation.ts decides): one PUT gives the client its new secret (the
// previous one stops working: a grace is refused until the operator manages Keycloak's secret-rotation client
// policy); the credentials Secret is then written with the new one and an Event records it (never the values).
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import type { KubeObject } from '../../compile/kube-object.ts';
import { keycloakRotated, planRotation } from '../../compile/secret-rotation.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
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
