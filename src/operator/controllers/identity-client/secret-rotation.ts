// The shell of secret rotation (compile/secret-rotation.ts decides). Without a grace one write gives the client its
// new secret (the previous one stops working). With a grace Keycloak regenerates the secret itself and keeps the
// previous one until the grace ends (keycloak/collections/client-secret.ts). The credentials Secret is then written
// with the new one and an Event records it (never the values).
import type { IdentityClient } from '../../../../generated/types/crds/identityclient.ts';
import type { KubeObject } from '../../compile/kube-object.ts';
import { keycloakRotated, planRotation } from '../../compile/secret-rotation.ts';
import type { AdminClient } from '../../keycloak/admin-client.ts';
import {
  regenerateClientSecret,
  setClientSecret,
  stampClientSecret,
} from '../../keycloak/collections/client-secret.ts';
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
  const owner = { realm, uuid: live.uuid, clientId: live.clientId };
  if (plan.action === 'stamp') {
    await stampClientSecret(admin, ns, owner, plan.attributes);
    return { writes: ['stamp secret age'], nextInMs: plan.nextInMs };
  }
  if (plan.graceSeconds) {
    const { secret, writes } = await regenerateClientSecret(
      admin,
      ns,
      owner,
      plan.attributes,
      plan.graceSeconds,
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
  await setClientSecret(admin, ns, owner, secret, attributes);
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
