// `npm run bench:cli -- repo-list`: `bbdc repo list --limit 5000 --json` as its own process against the fake
// Bitbucket with the 5,000-repository data set. Goal: 5 HTTP requests (pages of 1,000). `--rounds=N` (default 5).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeBitbucket } from '../../../test/fake-bitbucket/server.ts';
import { credentials } from '../../../test/fake-bitbucket/state.ts';

const bin = join(import.meta.dirname, '..', '..', '..', 'bin', 'bbdc.js');
const goal = 5;

function bbdc(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; ms: number }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...argv], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.on('close', (code) =>
      resolve({ code: code ?? 1, stdout, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
    );
  });
}

/** Runs the benchmark and prints requests, page sizes and wall time per round, then the median. */
export async function run(args: string[]): Promise<void> {
  const rounds = Number(args.find((a) => a.startsWith('--rounds='))?.split('=')[1] ?? 5);
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-bench-repo-list-'));
  const fake = await startFakeBitbucket({ dataset: 'large' });
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    BBDC_URL: fake.url,
    BBDC_TOKEN: credentials.alice.token,
    BBDC_CONFIG_DIR: join(dir, 'config'),
  };
  try {
    console.log(
      `repo-list: bbdc repo list --limit 5000 --json, one process per round, fake Bitbucket with ${fake.state.repos.length} repositories on 127.0.0.1 (node ${process.version})`,
    );
    const times: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const before = fake.requests.length;
      const r = await bbdc(['repo', 'list', '--limit', '5000', '--json'], env);
      if (r.code !== 0) throw new Error(`bbdc repo list exited ${r.code}: ${r.stdout}`);
      const sent = fake.requests.slice(before);
      const count = JSON.parse(r.stdout).data.count as number;
      if (count !== 5000) throw new Error(`expected 5000 repositories, got ${count}`);
      const pages = sent.map((q) => q.query.get('limit')).join(',');
      const verdict = sent.length <= goal ? 'ok' : 'OVER GOAL';
      console.log(
        `  round ${i + 1}  ${String(sent.length).padStart(2)} requests (limit=${pages})  ${r.ms.toFixed(0).padStart(5)} ms  ${count} repositories, ${(r.stdout.length / 1024).toFixed(0)} KiB  goal ${goal}: ${verdict}`,
      );
      times.push(r.ms);
    }
    const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
    console.log(`  median wall time ${median.toFixed(0)} ms over ${rounds} rounds`);
    if (fake.violations.length)
      throw new Error(`requests outside the OpenAPI document: ${fake.violations[0]}`);
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
