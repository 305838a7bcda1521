// `npm run bench:cli -- bulk`: plans and applies 9 operations on 200 repositories against the fake Bitbucket,
// in-process, and prints requests, wall time and requests per second for each phase. `--concurrency=N` to vary.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/bbdc/cli/run.ts';
import { defaultDeps } from '../../../src/bbdc/default-deps.ts';
import { startFakeBitbucket } from '../../../test/fake-bitbucket/server.ts';
import { credentials } from '../../../test/fake-bitbucket/state.ts';

const policy = `apiVersion: bbdc.io/v1alpha1
kind: BulkPolicy
selector:
  projectKey: BIG
  slugGlob: "repo-0[01]*"
  repositories: [BIG/repo-0200]
operations:
  - {type: repositoryPermission, user: bob, permission: REPO_WRITE}
  - {type: repositoryPermission, group: developers, permission: REPO_READ}
  - {type: webhook, name: ci, url: "https://ci.example.test/hook", events: [repo:refs_changed, pr:opened]}
  - {type: requiredApprovers, count: 2}
  - {type: allTasksComplete}
  - {type: requiredBuilds, buildParentKeys: [ci-build], refMatcher: main}
  - {type: autoMerge}
  - {type: autoDecline, inactivityWeeks: 2}
  - {type: defaultTask, description: Update the changelog}
`;

/** Runs the benchmark and prints one line per phase. */
export async function run(args: string[]): Promise<void> {
  const concurrency = args.find((a) => a.startsWith('--concurrency='))?.split('=')[1] ?? '4';
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-bench-bulk-'));
  const fake = await startFakeBitbucket({ dataset: 'large' });
  try {
    writeFileSync(join(dir, 'policy.yaml'), policy);
    const bbdc = async (argv: string[]) => {
      let out = '';
      const deps = {
        ...defaultDeps(),
        env: {
          PATH: process.env.PATH,
          BBDC_URL: fake.url,
          BBDC_TOKEN: credentials.alice.token,
          BBDC_CONFIG_DIR: join(dir, 'config'),
        },
        homeDir: dir,
        stdout: { write: (t: string) => (out += t) },
        stderr: { write: (t: string) => (out += t) },
      };
      const before = fake.requests.length;
      const started = process.hrtime.bigint();
      const code = await runCli([...argv, '--json'], deps);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) throw new Error(`bbdc ${argv.join(' ')} exited ${code}: ${out}`);
      return { requests: fake.requests.length - before, ms, data: JSON.parse(out).data };
    };
    const plan = await bbdc(['bulk', 'plan', '-f', join(dir, 'policy.yaml'), '-o', join(dir, 'plan.json')]);
    const apply = await bbdc([
      'bulk',
      'apply',
      '--from-plan',
      join(dir, 'plan.json'),
      '--concurrency',
      concurrency,
    ]);
    const again = await bbdc([
      'bulk',
      'apply',
      '--from-plan',
      join(dir, 'plan.json'),
      '--concurrency',
      concurrency,
    ]);
    const line = (name: string, r: { requests: number; ms: number }, note: string) =>
      console.log(
        `  ${name.padEnd(14)} ${String(r.requests).padStart(5)} requests  ${r.ms.toFixed(0).padStart(6)} ms  ${((r.requests / r.ms) * 1000).toFixed(0).padStart(5)} req/s  ${note}`,
      );
    const targets = plan.data.plan.targets.length;
    const ops = plan.data.plan.targets[0].operations.length;
    console.log(
      `bulk: ${ops} operations on ${targets} repositories, fake Bitbucket on 127.0.0.1 (node ${process.version})`,
    );
    line('plan', plan, '');
    line('apply', apply, `${apply.data.counts.succeeded} operations succeeded, concurrency ${concurrency}`);
    line('apply again', again, 'steady state: reads and idempotent PUTs, nothing created');
    if (fake.violations.length)
      throw new Error(`requests outside the OpenAPI document: ${fake.violations[0]}`);
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
