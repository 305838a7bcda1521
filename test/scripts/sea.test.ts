// The single executable as the release builds it (bundleBbdc, makeBlob, injectBlob) for this machine: bbdc's own code
// one script a command group, and the npm packages in a script of their own, compiled when a command requires one.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bundleBbdc } from '../../scripts/release/bundle.ts';
import { injectBlob, makeBlob } from '../../scripts/release/sea.ts';
import { withFake } from '../bbdc/helpers/fake.ts';
import { credentials } from '../fake-bitbucket/state.ts';

const test = suite('single executable');
const dir = mkdtempSync(join(tmpdir(), 'bbdc-sea-'));
const exe = join(dir, 'bbdc');
let fake: Awaited<ReturnType<typeof withFake>>;

test.before(async () => {
  const scripts = await bundleBbdc(dir, '0.0.0-test', 'sea');
  await injectBlob(
    process.execPath,
    makeBlob(process.execPath, scripts, dir, { codeCache: true }),
    exe,
    process.platform,
  );
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** `bbdc <argv>` from the executable; resolves to its exit code and output. */
function run(argv: string[]) {
  const home = mkdtempSync(join(dir, 'home-'));
  // Not spawnSync: the fake Bitbucket answers from this process.
  return new Promise<{ status: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      exe,
      argv,
      {
        env: {
          PATH: '/nonexistent',
          HOME: home,
          BBDC_CONFIG_DIR: join(home, 'config'),
          BBDC_URL: fake.url,
          BBDC_TOKEN: credentials.alice.token,
        },
      },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  );
}

test("bbdc's own scripts hold no npm package; the packages script has a loader for each one bbdc requires", () => {
  for (const own of ['bbdc.cjs', 'bbdc-pr.cjs'])
    assert.not.match(readFileSync(join(dir, own), 'utf8'), 'node_modules/', own);
  const packages = readFileSync(join(dir, 'bbdc-packages.cjs'), 'utf8');
  assert.match(packages, 'yaml:()=>require_');
  assert.match(packages, 'node_modules/yaml/');
});

test("pr get runs from its group's script; a command that requires an npm package runs it from the packages script", async () => {
  const pr = await run(['pr', 'get', '1', '--json', '-R', 'PROJ/api']);
  assert.is(pr.status, 0, pr.stderr);
  assert.is(JSON.parse(pr.stdout).data.id, 1);
  // bulk plan reads its policy with the yaml package.
  const policy = join(dir, 'policy.yaml');
  writeFileSync(
    policy,
    'apiVersion: bbdc.io/v1alpha1\nkind: BulkPolicy\nselector: {repositories: [PROJ/api]}\noperations:\n  - {type: autoMerge, enabled: false}\n',
  );
  const bulk = await run(['bulk', 'plan', '-f', policy, '--json']);
  assert.is(bulk.status, 0, bulk.stderr);
  assert.ok(JSON.parse(bulk.stdout).data, bulk.stdout);
  // ai mcp serve's tools load every command: the whole script runs.
  const tools = await run(['ai', 'mcp', 'tools', '--json']);
  assert.is(tools.status, 0, tools.stderr);
});

test.run();
