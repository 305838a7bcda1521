import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { argUsage } from '../../src/bbdc/command.ts';
import { registry } from '../../src/bbdc/registry.ts';
import { readVersion } from '../../src/bbdc/version.ts';
import { createWorld, repoWithRemotes } from './helpers/world.ts';

const test = suite('bbdc ai skill');

function frontMatter(text: string) {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  assert.ok(m, 'SKILL.md starts with YAML front matter');
  return parse(m![1]);
}

test('show: front matter with name, description and version; every registry command in the reference', async () => {
  const w = createWorld();
  const r = await w.run(['ai', 'skill', 'show']);
  assert.is(r.code, 0, r.stderr);
  const meta = frontMatter(r.stdout);
  assert.is(meta.name, 'bbdc');
  assert.match(meta.description, 'Bitbucket Data Center');
  assert.is(meta.metadata.version, readVersion());
  assert.match(r.stdout, '## Command reference');
  for (const e of registry) {
    const c = await e.load();
    const args = c.args.map((a) => ` ${argUsage(a)}`).join('');
    assert.match(r.stdout, `- \`bbdc ${e.name}${args}\`: ${c.summary}.`, `${e.name} is in the reference`);
  }
  const j = (await w.run(['ai', 'skill', 'show', '--json'])).json().data;
  assert.equal([j.name, j.version, j.content], ['bbdc', readVersion(), r.stdout]);
  w.dispose();
});

test('workflow hints name only commands that exist', async () => {
  const w = createWorld();
  const text = (await w.run(['ai', 'skill', 'show'])).stdout;
  const names = registry.map((e) => e.name);
  const start = text.indexOf('## Workflows');
  const end = text.indexOf('## Command reference');
  assert.ok(start >= 0 && end > start, 'the skill has a Workflows section before the command reference');
  const hints = [...text.slice(start, end).matchAll(/`bbdc ([a-z -]+?)(?: [<-]|`)/g)].map((m) => m[1]);
  assert.ok(hints.length >= 3, `the Workflows section names commands (found ${hints.length})`);
  for (const hint of hints) {
    assert.ok(
      names.some((n) => hint.startsWith(n)),
      `workflow names "${hint}", which is a registry command`,
    );
  }
  w.dispose();
});

test('install writes to the git top level, is idempotent, updates a stale file; remove cleans up', async () => {
  const w = createWorld();
  const repo = repoWithRemotes(w.dir, 'work', {});
  mkdirSync(join(repo, 'sub'));
  const file = join(repo, '.claude', 'skills', 'bbdc', 'SKILL.md');
  const dry = await w.run(['ai', 'skill', 'install', '--dry-run', '--json'], { cwd: join(repo, 'sub') });
  assert.equal([dry.code, dry.json().data.predictedAction], [0, 'create']);
  assert.not.ok(existsSync(file), '--dry-run writes nothing');
  const first = (await w.run(['ai', 'skill', 'install', '--json'], { cwd: join(repo, 'sub') })).json().data;
  assert.equal(first, { path: file, action: 'created', version: readVersion() });
  assert.is(readFileSync(file, 'utf8'), (await w.run(['ai', 'skill', 'show'])).stdout);
  const again = await w.run(['ai', 'skill', 'install'], { cwd: repo });
  assert.match(again.stdout, 'Already up to date');
  writeFileSync(file, '---\nname: bbdc\n---\nold\n');
  const updated = (await w.run(['ai', 'skill', 'install', '--json'], { cwd: repo })).json().data;
  assert.is(updated.action, 'updated');
  const removed = await w.run(['ai', 'skill', 'remove'], { cwd: repo });
  assert.match(removed.stdout, `Removed ${file}`);
  assert.not.ok(existsSync(join(repo, '.claude', 'skills', 'bbdc')), 'the empty skill directory goes too');
  const none = (await w.run(['ai', 'skill', 'remove', '--json'], { cwd: repo })).json().data;
  assert.equal(none, { path: file, removed: false });
  w.dispose();
});

test('--global installs under ~/.claude/skills and --dir under any skills directory', async () => {
  const w = createWorld();
  const g = (await w.run(['ai', 'skill', 'install', '--global', '--json'])).json().data;
  assert.is(g.path, join(w.dir, '.claude', 'skills', 'bbdc', 'SKILL.md'));
  assert.ok(existsSync(g.path));
  const d = (await w.run(['ai', 'skill', 'install', '--dir', 'agents/skills', '--json'])).json().data;
  assert.is(d.path, join(w.cwd, 'agents', 'skills', 'bbdc', 'SKILL.md'));
  const plan = (await w.run(['ai', 'skill', 'remove', '--global', '--dry-run', '--json'])).json().data;
  assert.is(plan.predictedAction, 'delete');
  assert.ok(existsSync(g.path));
  w.dispose();
});

test.run();
