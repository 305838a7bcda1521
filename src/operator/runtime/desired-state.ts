// Deciding whether an object must be applied: the operator compares what it wants with what the cluster has
// before sending anything, so a resync with nothing changed writes nothing. Two checks, both needed:
//  - the applied-hash annotation detects changes to the desired object, including removed fields, which a
//    field-by-field subset comparison cannot see;
//  - the subset comparison detects drift (someone edited a field the operator manages).
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../core/canonical-json.ts';
import type { KubeObject } from '../compile/kube-object.ts';

/** The annotation that records the hash of the desired object the operator last applied. */
export const appliedHashAnnotation = 'realmforge.dev/applied-hash';

// Re-exported for the Keycloak collections that compare with it.
export { canonicalJson };

/** A stable sha256 of an object (keys sorted), ignoring the applied-hash annotation itself. */
export function objectHash(object: KubeObject): string {
  const annotations = { ...object.metadata.annotations };
  delete annotations[appliedHashAnnotation];
  const copy = { ...object, metadata: { ...object.metadata, annotations } };
  return createHash('sha256').update(canonicalJson(copy)).digest('hex').slice(0, 32);
}

/** The desired object with its applied-hash annotation set: what the operator sends with server-side apply. */
export function withAppliedHash(object: KubeObject): KubeObject {
  const hash = objectHash(object);
  return {
    ...object,
    metadata: {
      ...object.metadata,
      annotations: { ...object.metadata.annotations, [appliedHashAnnotation]: hash },
    },
  };
}

// The API server rewrites some values it accepts: numbers where it stores strings (quantities, intstr).
function scalarEqual(want: unknown, have: unknown): boolean {
  if (want === have) return true;
  if (typeof want === 'number' && typeof have === 'string') return String(want) === have;
  return false;
}

/** The path of the first field of `want` that is missing or different in `have`, or undefined when none is. */
export function firstDifference(want: unknown, have: unknown, path = ''): string | undefined {
  if (Array.isArray(want)) {
    if (!Array.isArray(have) || want.length !== have.length) return path || '.';
    for (let i = 0; i < want.length; i++) {
      const d = firstDifference(want[i], have[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (want && typeof want === 'object') {
    if (!have || typeof have !== 'object' || Array.isArray(have)) return path || '.';
    for (const [k, w] of Object.entries(want)) {
      if (w === undefined) continue;
      const d = firstDifference(w, (have as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
    return undefined;
  }
  return scalarEqual(want, have) ? undefined : path || '.';
}

/** True when every field of `want` is present and equal in `have` (extra fields in `have` are defaults, ignored). */
export function isSubset(want: unknown, have: unknown): boolean {
  return firstDifference(want, have) === undefined;
}

/** Why `desired` (already carrying its applied hash) must be applied over `live`, or undefined when it need not be. */
export function applyReason(desired: KubeObject, live: KubeObject | undefined): string | undefined {
  if (!live) return 'missing';
  const liveHash = live.metadata.annotations?.[appliedHashAnnotation];
  if (liveHash !== desired.metadata.annotations?.[appliedHashAnnotation]) return 'changed';
  const { metadata, apiVersion: _a, kind: _k, status: _s, ...body } = desired;
  const wantMeta = {
    labels: metadata.labels,
    annotations: metadata.annotations,
    ownerReferences: metadata.ownerReferences,
  };
  const drift = firstDifference(wantMeta, live.metadata, '.metadata') ?? firstDifference(body, live);
  return drift ? `drifted at ${drift}` : undefined;
}
