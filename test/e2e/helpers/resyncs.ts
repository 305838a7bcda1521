// Waiting on the operator's own count of reconciles instead of a fixed sleep: each drift interval resyncs every
// object of a kind once, so N objects resynced `times` times each are `times * N` more successful reconciles of
// that kind. A test that asserts nothing changed waits on this to prove the resyncs ran.
import { eventually, type TestEnv } from '../../../scripts/testenv/harness.ts';
import type { OperatorProcess } from '../../../scripts/testenv/operator-process.ts';

/** Waits, counting from now, until each object of `kind` (IdentityServer, IdentityRealm, IdentityClient) resynced
 * `times` times (about `times` drift intervals); returns how many reconciles of the kind it counted. */
export async function resyncs(
  env: TestEnv,
  operator: OperatorProcess,
  kind: string,
  times: number,
  ms = 60_000,
): Promise<number> {
  const list = await env.request('GET', `/apis/realmforge.dev/v1/${kind.toLowerCase()}s`);
  const objects = (list.body.items as unknown[]).length;
  const count = () => operator.counter('realmforge_reconcile_total', { kind, result: 'success' });
  const from = await count();
  return eventually(`${times} resyncs of each of ${objects} ${kind}`, ms, async () => {
    const counted = (await count()) - from;
    return counted >= times * objects ? counted : undefined;
  });
}
