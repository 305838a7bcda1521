// The single executable as the release builds it (bundleForSea, makeBlob, injectBlob) for this machine: bbdc's own
// code and the npm packages are two scripts, and a command compiles the packages only when it requires one.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bundleForSea } from '../../scripts/release/bundle.ts';
import { injectBlob, makeBlob } from '../../scripts/release/sea.ts';
import { withFake } from '../bbdc/helpers/fake.ts';
import { credentials } from '../fake-bitbucket/state.ts';

const test = suite('single executable');
const dir = mkdtempSync(join(tmpdir(), 'bbdc-sea-'));
const exe = join(dir, 'bbdc');
let fake: Awaited<ReturnType<typeof withFake>>;

test.before(async () => {
  const scripts = await bundleForSea(dir, '0.0.0-test');
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

/** `bbdc <argv>` from the executable in `home`; resolves to its exit code, output and the caches it has written. */
async function run(argv: string[], home: string) {
  // Not spawnSync: the fake Bitbucket answers from this process.
  const r = await new Promise<{ status: number; stdout: string; stderr: string }>((resolve) =>
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
  let caches: string[] = [];
  try {
    caches = readdirSync(join(home, '.cache', 'bbdc', 'compile-cache', 'executable')).sort();
  } catch {}
  return { ...r, caches };
}

test("bbdc's own script holds no npm package; the packages script has a loader for each one bbdc requires", () => {
  assert.not.match(readFileSync(join(dir, 'bbdc.cjs'), 'latin1'), 'node_modules/');
  const packages = readFileSync(join(dir, 'bbdc.packages.cjs'), 'latin1');
  assert.match(packages, 'yaml:()=>require_');
  assert.match(packages, 'node_modules/yaml/');
});

test("pr get runs its group's bundle and compiles no package; a command that requires one compiles them", async () => {
  const home = mkdtempSync(join(dir, 'home-'));
  const pr = await run(['pr', 'get', '1', '--json', '-R', 'PROJ/api'], home);
  assert.is(pr.status, 0, pr.stderr);
  assert.is(JSON.parse(pr.stdout).data.id, 1);
  // A cache file is `<script>-<build>.<command>.cache` (launcher.ts).
  const scripts = (caches: string[]) =>
    caches.map((f) => `${f.slice(0, f.indexOf('-'))} ${f.split('.').at(-2)}`);
  assert.equal(scripts(pr.caches), ['bbdc.pr.cjs pr-get']);
  const api = await run(['api', '/rest/api/latest/projects'], home);
  assert.is(api.status, 0, api.stderr);
  assert.is(JSON.parse(api.stdout).size > 0, true);
  assert.equal(scripts(api.caches), ['bbdc.api.cjs api', 'bbdc.packages.cjs api', 'bbdc.pr.cjs pr-get']);
});

test.run();
