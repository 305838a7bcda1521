// The executor of a collection's plan (plan.ts): refuses the whole plan, before its first write, when it has a
// conflict; otherwise claims the new ledger keys and sends the writes in the collection's write mode. What needs
// Keycloak stays here: `resolve` (a role mapping needs the live role's id) and a document's second read.
// A lost answer to a create (OutcomeUnknownError) is simply rethrown: the next reconcile lists first, so it finds
// the item if it was created and never sends the create twice blindly.
import { RealmforgeError } from '../../../core/errors.ts';
import type { AdminClient } from '../admin-client.ts';
import type { Collection, Item, SyncOptions } from './collection.ts';
import { comparedPart, type Plan } from './plan.ts';

/** Thrown when a declared item exists but belongs to someone else; names the item, the field and the way out. */
export class ItemConflictError extends RealmforgeError {
  readonly reason = 'NameConflict';
  constructor(message: string) {
    super('conflict', message);
  }
}

/** String attributes of the live item the update leaves out, sent empty (an update adds and changes only). */
function emptied(c: Collection, body: Item, live: Item): Item {
  const out: Item = {};
  for (const field of Object.keys(c.compared).filter((f) => f === 'attributes')) {
    const [want, have] = [body[field], live[field]];
    if (!want || typeof want !== 'object' || Array.isArray(want) || !have || typeof have !== 'object')
      continue;
    const gone = Object.entries(have).filter(([k, v]) => typeof v === 'string' && v !== '' && !(k in want));
    if (gone.length) out[field] = { ...Object.fromEntries(gone.map(([k]) => [k, ''])), ...want };
  }
  return out;
}

const keys = (c: Collection, items: readonly Item[]) => items.map((i) => c.key(i)).join(',');

/**
 * Writes the whole `plan` of collection `c`, or nothing: a plan with conflicts is one ItemConflictError naming
 * every one of them. Returns the writes, for the log.
 */
export async function applyPlan(
  admin: AdminClient,
  namespace: string,
  c: Collection,
  plan: Plan,
  options: Pick<SyncOptions, 'claim'> = {},
): Promise<string[]> {
  if (plan.conflicts.length) throw new ItemConflictError(plan.conflicts.map((x) => x.message).join('; '));
  const changes = plan.create.length + plan.update.length + plan.delete.length;
  // A whole document is read again right before it is written (below); a declared item someone made since the
  // first read is a conflict before anything is claimed or written.
  const document =
    c.write.mode === 'document' && changes ? await reread(admin, namespace, c, plan) : undefined;
  if (options.claim && plan.claim.length) await options.claim([...plan.claim]);
  const resolved = (item: Item) => c.resolve?.(admin, namespace, item) ?? item;
  const call = (method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) =>
    admin.call(namespace, method, path, body);
  const w = c.write;
  if (w.mode === 'document') {
    if (!document) return [];
    const gone = new Set(plan.delete.map((i) => c.key(i)));
    const changed = new Map(plan.update.map((u) => [u.key, u.desired]));
    const kept = document.items.filter((i) => !gone.has(c.key(i))).map((i) => changed.get(c.key(i)) ?? i);
    await call('PUT', w.path, w.wrap([...kept, ...plan.create], document.answer));
    return [
      ...plan.create.map((i) => `create ${c.noun} ${c.key(i)}`),
      ...plan.update.map((u) => `update ${c.noun} ${u.key}`),
      ...plan.delete.map((i) => `delete ${c.noun} ${c.key(i)}`),
    ];
  }
  const writes: string[] = [];
  if (w.mode === 'batch') {
    if (plan.create.length) {
      const bodies = [];
      for (const want of plan.create) bodies.push(await resolved(want));
      created(c, keys(c, plan.create), await call('POST', w.path, bodies));
      writes.push(`add ${c.noun} ${keys(c, plan.create)}`);
    }
    if (plan.delete.length) {
      // Keycloak removes a mapping by the role's id and name: a live item read as a name alone is resolved.
      const bodies = [];
      for (const have of plan.delete) bodies.push(have.id ? have : await resolved(have));
      await call('DELETE', w.path, bodies);
      writes.push(`remove ${c.noun} ${keys(c, plan.delete)}`);
    }
    return writes;
  }
  if (w.mode === 'each') {
    for (const { key, desired, live } of plan.update) {
      const body = await resolved(desired);
      const sent = c.send
        ? c.send(body, live)
        : { ...live, ...comparedPart(c, body), ...body, ...emptied(c, body, live) };
      await call('PUT', w.itemPath(live), sent);
      writes.push(`update ${c.noun} ${key}`);
    }
    for (const want of plan.create) {
      const body = await resolved(want);
      const path = typeof w.createPath === 'string' ? w.createPath : w.createPath(want);
      await call('POST', path, c.send ? c.send(body) : body);
      writes.push(`create ${c.noun} ${c.key(want)}`);
    }
  } else if (w.mode === 'map') {
    const upserts = [...plan.create, ...plan.update.map((u) => u.desired)];
    if (upserts.length) {
      await call('POST', w.path, Object.fromEntries(upserts.map((i) => [c.key(i), i.value])));
      writes.push(`set ${c.noun} ${keys(c, upserts)}`);
    }
  } else {
    for (const want of plan.create) {
      created(c, c.key(want), await call('PUT', w.itemPath(await resolved(want))));
      writes.push(`add ${c.noun} ${c.key(want)}`);
    }
  }
  // Items, map entries and links are removed one by one.
  for (const have of plan.delete) {
    await call('DELETE', w.itemPath(have));
    writes.push(`${w.mode === 'link' ? 'remove' : 'delete'} ${c.noun} ${c.key(have)}`);
  }
  return writes;
}

/** A document collection's items as Keycloak has them now. Keycloak keeps no version of the document, so it is read
 * again right before the write and only our items are changed: a person's edit since the first read is kept
 * (what is left: an edit in the milliseconds between this read and the write). */
async function reread(admin: AdminClient, namespace: string, c: Collection, plan: Plan) {
  if (c.write.mode !== 'document') throw new Error(`${c.noun} is not one document`);
  const answer = (await admin.call(namespace, 'GET', c.listPath)).body;
  const items = c.write.unwrap(answer) ?? [];
  const creating = new Set(plan.create.map((i) => c.key(i)));
  const taken = items.find((i) => creating.has(c.key(i)));
  if (taken)
    throw new ItemConflictError(
      `${c.field} declares ${c.noun} "${c.key(taken)}", which someone created in Keycloak just now: rename it in the spec, or delete it in Keycloak`,
    );
  return { answer, items };
}

/** A create answered 409 was made by someone else at the same moment: retried, it becomes a conflict or an update. */
function created(c: Collection, key: string, res: { status: number }): void {
  if (res.status === 409)
    throw new RealmforgeError(
      'conflict',
      `${c.noun} ${key} was created by someone else at the same time; retrying`,
    );
  if (res.status === 404)
    throw new RealmforgeError('validation', `${c.field}: Keycloak answered 404 creating ${c.noun} ${key}`);
}
