// When a client's secret is rotated, and what Keycloak is told when it is. Pure: the live client's attributes,
// the resource's annotation and the time are inputs. Without a grace the rotation write clears Keycloak's
// rotated-secret attributes (client.secret.rotated*). With a grace, Keycloak itself keeps the previous secret: only
// under a realm client policy whose secret-rotation executor applies to the client (Keycloak drops a rotated
// secret on every admin update otherwise), so the operator keeps one such profile and policy per grace (see
// gracePolicy) matching the clients whose attribute realmforge.dev/secret-rotation-grace holds that grace.
import type { IdentityClient } from '../../../generated/types/crds/identityclient.ts';

/** The annotation that asks for a rotation now: any value not yet handled. */
export const rotateAnnotation = 'realmforge.dev/rotate-secret';
/** When the current secret was made by a rotation (or first seen with rotation on), in epoch seconds. */
export const rotatedAtAttribute = 'realmforge.dev/secret-rotated-at';
/** The value of the rotate annotation last handled. */
export const rotationRequestAttribute = 'realmforge.dev/secret-rotation-request';

/** Keycloak's attributes for the rotated secret (ClientSecretConstants). */
export const keycloakRotated = {
  secret: 'client.secret.rotated',
  creation: 'client.secret.rotated.creation.time',
  expiration: 'client.secret.rotated.expiration.time',
  secretCreation: 'client.secret.creation.time',
} as const;

const unitSeconds = { s: 1, m: 60, h: 3600, d: 86_400 } as Record<string, number>;

/** A schema duration (10s, 5m, 720h, 30d) in seconds. */
export function durationSeconds(raw: string): number {
  const m = /^(\d+)(s|m|h|d)$/.exec(raw);
  return m ? Number(m[1]) * (unitSeconds[m[2] ?? 's'] ?? 1) : Number.NaN;
}

/** Whether the client holds a shared secret at all (OIDC, confidential, authenticated by client-secret[-jwt]). */
export const hasSharedSecret = (client: IdentityClient) =>
  client.spec.protocol !== 'saml' &&
  (client.spec.type ?? 'confidential') === 'confidential' &&
  ['client-secret', 'client-secret-jwt'].includes(client.spec.authentication?.method ?? 'client-secret');

/** The client attribute naming the grace (in seconds) of a client rotating with one: the condition of the
 * realm client policy that keeps its previous secret. */
export const graceAttribute = 'realmforge.dev/secret-rotation-grace';

/** The grace of `client` in seconds (0: none). */
export const graceSecondsOf = (client: IdentityClient) =>
  client.spec.secretRotation?.grace ? durationSeconds(client.spec.secretRotation.grace) : 0;

/** Five years: the executor's own secret expiration (Keycloak adds it to the time as a Java int of seconds, so it
 * must stay well below 2^31 - now), set this far so
 * Keycloak never rotates by itself (the operator decides when). */
const farExpirationSeconds = 5 * 365 * 86_400;

/**
 * The realm client profile and policy that make Keycloak keep a rotated secret for `grace` seconds, for the
 * clients whose grace attribute says so. Named realmforge-secret-rotation-<grace>s; kept by the operator, never
 * by the IdentityRealm (it does not record them, so it leaves them alone).
 */
export function gracePolicy(grace: number) {
  const name = `realmforge-secret-rotation-${grace}s`;
  return {
    profile: {
      name,
      description: `realmforge: keeps a rotated client secret for ${grace}s (clients with ${graceAttribute}=${grace})`,
      executors: [
        {
          executor: 'secret-rotation',
          configuration: {
            'expiration-period': farExpirationSeconds,
            'rotated-expiration-period': grace,
            'remaining-rotation-period': grace,
          },
        },
      ],
    },
    policy: {
      name,
      description: `realmforge: applies ${name} to the clients rotating with a ${grace}s grace`,
      enabled: true,
      conditions: [
        {
          condition: 'client-attributes',
          configuration: { attributes: JSON.stringify([{ key: graceAttribute, value: String(grace) }]) },
        },
      ],
      profiles: [name],
    },
  };
}

/** What is wrong with spec.secretRotation, one message per problem (empty: nothing). */
export function rotationSpecProblems(client: IdentityClient): string[] {
  const r = client.spec.secretRotation;
  const requested = client.metadata.annotations?.[rotateAnnotation] !== undefined;
  if (!r && !requested) return [];
  const where = r ? 'spec.secretRotation' : `annotation ${rotateAnnotation}`;
  if (!hasSharedSecret(client))
    return [
      `${where}: only a confidential client authenticated by client-secret or client-secret-jwt has a secret to rotate (this one is ${client.spec.protocol === 'saml' ? 'saml' : (client.spec.type ?? 'confidential')}${client.spec.authentication?.method ? ` with ${client.spec.authentication.method}` : ''}); remove it`,
    ];
  if (!r) return [];
  const period = durationSeconds(r.period);
  const grace = r.grace === undefined ? 0 : durationSeconds(r.grace);
  const problems: string[] = [];
  if (!(period >= 10))
    problems.push(`spec.secretRotation.period: "${r.period}" is shorter than 10s; use e.g. 720h or 30d`);
  if (r.grace !== undefined && !(grace < period))
    problems.push(
      `spec.secretRotation.grace: "${r.grace}" is not shorter than the period "${r.period}"; two rotations would overlap`,
    );
  return problems;
}

/** What a reconcile does about the secret. */
export type RotationPlan =
  | { action: 'none'; nextInMs?: number }
  | { action: 'stamp'; attributes: Record<string, string>; nextInMs: number }
  | {
      action: 'rotate';
      why: 'scheduled' | 'requested';
      /** The attributes to write with the new secret; the previous secret is added by the shell. */
      attributes: Record<string, string>;
      graceSeconds: number;
      nextInMs?: number;
    };

/**
 * The plan for `client` whose live attributes are `attrs` at `nowMs`. A client that turns rotation on is stamped
 * first (its current secret's age counts from then, so turning rotation on never rotates at once); a new value of
 * the rotate annotation rotates now, with or without spec.secretRotation.
 */
export function planRotation(
  client: IdentityClient,
  attrs: Record<string, string | undefined>,
  nowMs: number,
): RotationPlan {
  const r = client.spec.secretRotation;
  const now = Math.floor(nowMs / 1000);
  const period = r ? durationSeconds(r.period) : undefined;
  const grace = r?.grace ? durationSeconds(r.grace) : 0;
  const request = client.metadata.annotations?.[rotateAnnotation];
  const requested = request !== undefined && request !== attrs[rotationRequestAttribute];
  const stamped = Number(attrs[rotatedAtAttribute]);
  const dueAt = period !== undefined && Number.isFinite(stamped) ? stamped + period : undefined;
  if (requested || (dueAt !== undefined && now >= dueAt)) {
    // With a grace Keycloak's executor writes its own attributes when it regenerates the secret; without one the
    // rotated-secret attributes are sent empty (removed) with the new secret.
    const attributes: Record<string, string> = {
      [rotatedAtAttribute]: String(now),
      ...(grace
        ? {}
        : {
            [keycloakRotated.secretCreation]: String(now),
            [keycloakRotated.creation]: '',
            [keycloakRotated.expiration]: '',
          }),
      ...(request !== undefined ? { [rotationRequestAttribute]: request } : {}),
    };
    const nextInMs = period !== undefined ? period * 1000 : undefined;
    return {
      action: 'rotate',
      why: requested ? 'requested' : 'scheduled',
      attributes,
      graceSeconds: grace,
      nextInMs,
    };
  }
  if (period !== undefined && dueAt === undefined)
    return { action: 'stamp', attributes: { [rotatedAtAttribute]: String(now) }, nextInMs: period * 1000 };
  return { action: 'none', nextInMs: dueAt !== undefined ? (dueAt - now) * 1000 : undefined };
}
