// Measures how long Keycloak takes to create a realm as realms accumulate (the figures behind the realm-create
// timeout rule, src/operator/keycloak/realm-create-timeout.ts). Creates realms realm-create-<n> one after another
// with the minimal body, timing each POST, and prints at each count the median and slowest of the last ten creates
// and the timeout the operator's rule would give the next create. Stops early after --budget seconds.
//   node scripts/bench/realm-create-times.ts <keycloak-url> <admin-user> <admin-password> [10,50,100] [--budget=600]
// It leaves the realms: run it on a throw-away Keycloak (e.g. a test environment's harness Keycloak).

import { systemClock } from '../../src/core/clock.ts';
import { createAdminClient } from '../../src/operator/keycloak/admin-client.ts';
import { realmCreateTimeoutMs } from '../../src/operator/keycloak/realm-create-timeout.ts';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const budgetS = Number(process.argv.find((a) => a.startsWith('--budget='))?.slice(9) ?? 600);
const [url, username, password, countsArg = '10,50,100'] = args;
if (!url || !username || !password) {
  console.error(
    'usage: node scripts/bench/realm-create-times.ts <url> <user> <password> [10,50,100] [--budget=600]',
  );
  process.exit(2);
}
const counts = countsArg.split(',').map(Number);
const admin = createAdminClient(
  url.replace(/\/$/, ''),
  { username, password },
  {
    http: (u, init) => fetch(u, init as RequestInit),
    limiter: { acquire: async () => {}, stop: async () => {} },
    clock: systemClock,
    random: Math.random,
    count: () => {},
    canWrite: () => true,
    timeoutMs: 600_000,
  },
);
const existing = ((await admin.call<{ realm: string }[]>('bench', 'GET', '')).body ?? []).length;
const started = Date.now();
const times: number[] = [];
let slowest = 0;
console.log(`realms before: ${existing} (master included); budget ${budgetS} s`);
console.log(
  'realms | create median of last 10 (ms) | slowest of last 10 (ms) | rule timeout for the next (s)',
);
for (let n = 1; n <= Math.max(...counts); n++) {
  if ((Date.now() - started) / 1000 > budgetS) {
    console.log(`budget reached at ${existing + n - 1} realms`);
    break;
  }
  const t0 = Date.now();
  const res = await admin.call('bench', 'POST', '', { realm: `realm-create-${started}-${n}`, enabled: true });
  const took = Date.now() - t0;
  if (res.status !== 201) throw new Error(`create ${n}: HTTP ${res.status}`);
  times.push(took);
  slowest = Math.max(slowest, took);
  if (counts.includes(n)) {
    const last = times.slice(-10).sort((a, b) => a - b);
    const median = last[Math.floor(last.length / 2)];
    console.log(
      `${String(existing + n).padStart(6)} | ${String(median).padStart(30)} | ${String(last.at(-1)).padStart(23)} | ${realmCreateTimeoutMs(slowest) / 1000}`,
    );
  }
}
