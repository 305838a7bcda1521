// `npm run bench dev`: npm start, npm stop, npm start again, npm stop, timed side by side in one run, against the
// goal "a second npm start is ready in under 2 minutes". Each start is split into the environment (control plane,
// PostgreSQL, kubelet) and the rest (the operator, Keycloak's first start, realm and client). Uses its own state
// file, so it never touches a dev environment that is already up.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const goalSeconds = 120;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  REALMFORGE_DEV_STATE: join(mkdtempSync(join(tmpdir(), 'bench-dev-')), 'state.json'),
};
delete env.REALMFORGE_TESTENV_STATE;

function dev(command: string): Promise<{ code: number; out: string; seconds: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bin', 'realmforge.js'), 'dev', command], {
      cwd: root,
      env,
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('close', (code) => resolve({ code: code ?? 1, out, seconds: (Date.now() - started) / 1000 }));
  });
}

/** The environment's own start time, from the `up in N s` line. */
const envSeconds = (out: string) => Number(/up in ([\d.]+) s/.exec(out)?.[1] ?? Number.NaN);

export async function run(): Promise<void> {
  const rows: [string, number, number][] = [];
  for (const label of ['first npm start', 'second npm start']) {
    const up = await dev('up');
    if (up.code !== 0) {
      console.log(up.out);
      await dev('down');
      throw new Error(`${label} failed (exit ${up.code})`);
    }
    rows.push([label, up.seconds, envSeconds(up.out)]);
    const down = await dev('down');
    rows.push([`npm stop after the ${label.split(' ')[0]}`, down.seconds, Number.NaN]);
  }
  console.log('step                          total s   environment s   rest s');
  for (const [label, total, environment] of rows) {
    const rest = Number.isNaN(environment) ? '' : (total - environment).toFixed(1);
    console.log(
      `${label.padEnd(30)}${total.toFixed(1).padStart(7)}${(Number.isNaN(environment) ? '' : environment.toFixed(1)).padStart(16)}${rest.padStart(9)}`,
    );
  }
  const second = rows[2][1];
  console.log(
    `second npm start: ${second.toFixed(1)} s = ${(second / goalSeconds).toFixed(2)} x the goal of ${goalSeconds} s: ${second < goalSeconds ? 'MET' : 'NOT MET'}`,
  );
}
