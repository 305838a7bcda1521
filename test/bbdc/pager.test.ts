import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runPager } from '../../src/bbdc/output/pager.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc pager');
let fake: Awaited<ReturnType<typeof withFake>>;
test.before(async () => {
  fake = await withFake();
});
test.after(async () => {
  await fake.stop();
});
const world = (env: Record<string, string>, tty = true, rows = 3) =>
  createWorld({ tty, rows, env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token, ...env } });

test('long output on a terminal goes through BBDC_PAGER, else PAGER; nothing reaches stdout directly', async () => {
  const w = world({ PAGER: 'less' });
  const r = await w.run(['repo', 'list', '--no-color']);
  assert.is(r.stdout, '');
  assert.equal(
    w.paged.map((p) => p.command),
    ['less'],
  );
  assert.match(w.paged[0].text, /^REPOSITORY +NAME +VISIBILITY\n/);
  assert.match(w.paged[0].text, /\nPROJ\/api +api +private\n/);
  const both = world({ PAGER: 'less', BBDC_PAGER: 'most' });
  await both.run(['repo', 'list']);
  assert.equal(
    both.paged.map((p) => p.command),
    ['most'],
  );
  w.dispose();
  both.dispose();
});

test('no pager when piped, with --json, with --no-pager, for PAGER=cat, or when the output fits the screen', async () => {
  const cases: [string, ReturnType<typeof world>, string[]][] = [
    ['piped', world({ PAGER: 'less' }, false), ['repo', 'list']],
    ['--json', world({ PAGER: 'less' }), ['repo', 'list', '--json']],
    ['--no-pager', world({ PAGER: 'less' }), ['repo', 'list', '--no-pager']],
    ['cat', world({ PAGER: 'cat' }), ['repo', 'list']],
    ['short', world({ PAGER: 'less' }, true, 50), ['repo', 'list']],
    ['unset', world({}), ['repo', 'list']],
  ];
  for (const [name, w, argv] of cases) {
    const r = await w.run(argv);
    assert.is(r.code, 0, name);
    assert.match(r.stdout, 'api', name);
    assert.equal(w.paged, [], name);
    w.dispose();
  }
});

test('a dry run and a failing command still show their output', async () => {
  const w = world({ PAGER: 'less' }, true, 50);
  const dry = await w.run(['repo', 'delete', 'PROJ/web', '--dry-run', '--yes']);
  assert.match(dry.stdout, 'Dry run');
  w.dispose();
});

test('the pager runs through the shell and gets the bytes on stdin', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bbdc-pager-'));
  const out = join(dir, 'paged');
  await runPager(`cat > '${out}'`, Buffer.from('line 1\nline 2\n'), { PATH: process.env.PATH });
  assert.is(readFileSync(out, 'utf8'), 'line 1\nline 2\n');
  // A pager that exits without reading (the user quit) is not an error.
  await runPager('true', Buffer.alloc(1 << 20, 10), { PATH: process.env.PATH });
  rmSync(dir, { recursive: true, force: true });
});

test.run();
