// Waiting for a count to reach a target by polling it, apart from the watches (ready-watch.ts) so that it is
// unit-tested without the test environment.

/** How often the benches poll a Ready count kept in memory by a watch: a time to Ready is late by at most that (a
 * 2 s poll added up to 2 s to each of the realms' and the clients' waits). */
export const readyPollMs = 50;

/** Polls `count()` every `everyMs` (2 s: an API list) until it reaches `target`; `seen(n)` is told every new
 * count. */
export async function until(
  what: string,
  target: number,
  count: () => Promise<number>,
  seen: (n: number) => Promise<void>,
  everyMs = 2000,
) {
  const deadline = Date.now() + 6 * 3600_000;
  for (let last = -1; ; ) {
    const n = await count();
    if (n !== last) await seen(n);
    last = n;
    if (n >= target) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${n} of ${target})`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
