// Deciding whether an object must be applied: the operator compares what it wants with what the cluster has
// before sending anything, so a resync with nothing changed writes nothing. Two checks, both needed:
//  - the applied-hash annotation detects changes to the desired object, including removed fields, which a
//    field-by-field subset comparison cannot see;
//  - the subset comparison detects drift (someone edited a field the operator manages).
import { createHash } from 'node:crypto';
import type { KubeObject } from '../compile/kube-object.ts';

/** The annotation that records the hash of the desired object the operator last applied. */
export const appliedHashAnnotation = 'realmforge.dev/applied-hash';

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** A stable sha256 of an object (keys sorted), ignoring the applied-hash annotation itself. */
export function objectHash(object: KubeObject): string {
  const annotations = { ...object.metadata.annotations };
  delete annotations[appliedHashAnnotation];
  const copy = { ...object, metadata: { ...object.metadata, annotations } };
  return createHash('sha256')
    .update(JSON.stringify(canonical(copy)))
    .digest('hex')
    .slice(0, 32);
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

/** True when every field of `want` is present and equal in `have` (extra fields in `have` are defaults, ignored). */
export function isSubset(want: unknown, have: unknown): boolean {
  if (Array.isArray(want)) {
    return Array.isArray(have) && want.length === have.length && want.every((w, i) => isSubset(w, have[i]));
  }
  if (want && typeof want === 'object') {
    if (!have || typeof have !== 'object' || Array.isArray(have)) return false;
    return Object.entries(want).every(
      ([k, w]) => w === undefined || isSubset(w, (have as Record<string, unknown>)[k]),
    );
  }
  return scalarEqual(want, have);
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
  if (!isSubset(wantMeta, live.metadata) || !isSubset(body, live)) return 'drifted';
  return undefined;
}
