import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { renderManifest } from '../../src/bbdc/cli/command-info.ts';
import { commandInfos } from '../../src/bbdc/cli/manifest.ts';
import { parseFlags } from '../../src/bbdc/cli/parse-flags.ts';
import { closest } from '../../src/bbdc/cli/suggest.ts';
import type { FlagSpec } from '../../src/bbdc/command.ts';
import { helpSections, loadAll } from '../../src/bbdc/registry.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc help, manifest and flag parsing');
const root = join(import.meta.dirname, '..', '..');

test('the generated command manifest is the registry as it is now (else: npm run generate)', async () => {
  const committed = readFileSync(join(root, 'generated', 'bbdc', 'commands.json'), 'utf8');
  assert.ok(
    committed === renderManifest(await loadAll()),
    'generated/bbdc/commands.json is stale: npm run generate',
  );
  assert.is(commandInfos.length, (await loadAll()).length);
});

test('bin/bbdc.js prints the generated --help, the same text the CLI renders, with the version', async () => {
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  const w = createWorld();
  const rendered = (await w.run(['--help'])).stdout;
  w.dispose();
  for (const argv of [['--help'], ['-h'], []]) {
    const res = spawnSync(process.execPath, [join(root, 'bin', 'bbdc.js'), ...argv], { encoding: 'utf8' });
    assert.is(res.status, 0);
    assert.is(res.stdout, rendered, argv.join(' '));
  }
  assert.match(rendered, `bbdc ${version}: work with Bitbucket`);
});

test('every top-level command word has a help section (this lists the ones that do not)', () => {
  const listed = new Set(helpSections.flatMap(([, words]) => words));
  const ungrouped = [...new Set(commandInfos.map((c) => c.name.split(' ')[0]))].filter((w) => !listed.has(w));
  assert.equal(ungrouped, [], `add these to helpSections in src/bbdc/registry.ts: ${ungrouped.join(', ')}`);
});

test('bbdc --help lists top-level commands by section, each once, in far fewer lines than commands', async () => {
  const w = createWorld();
  const r = await w.run(['--help']);
  w.dispose();
  assert.is(r.code, 0);
  const titles = r.stdout.split('\n').filter((l) => /^[A-Z][^:]*:$/.test(l));
  assert.equal(titles.slice(0, 5), [
    'Core commands:',
    'Pull requests:',
    'Branches, tags and commits:',
    'Repository settings:',
    'Automation:',
  ]);
  assert.match(r.stdout, /Pull requests:\n {2}pr: +Work with pull requests/);
  for (const word of new Set(commandInfos.map((c) => c.name.split(' ')[0]))) {
    assert.is(r.stdout.match(new RegExp(`^  ${word}:`, 'gm'))?.length, 1, word);
  }
  assert.ok(r.stdout.split('\n').length < 65, `${r.stdout.split('\n').length} lines`);
  assert.ok(commandInfos.length > 100);
});

test('a group lists its commands, subgroups under their summary', async () => {
  const w = createWorld();
  const r = await w.run(['pr', '--help']);
  w.dispose();
  assert.is(r.code, 0);
  assert.match(r.stdout, /Commands:\n {2}pr list/);
  assert.match(r.stdout, /Add or remove reviewers of a pull request:\n {2}pr reviewer add/);
});

test('an unknown command, subcommand or flag says "did you mean" and exits 2', async () => {
  const w = createWorld();
  const top = await w.run(['rpo', 'list']);
  assert.equal(
    [top.code, top.stderr],
    [2, 'error: unknown command "rpo" (did you mean "repo"?); run `bbdc --help` for the list\n'],
  );
  const sub = await w.run(['pr', 'lst']);
  assert.is(sub.code, 2);
  assert.is(sub.stdout, '', 'no help on stdout');
  assert.is(
    sub.stderr,
    'error: unknown command "pr lst" (did you mean "pr list"?); run `bbdc pr --help` for its commands\n',
  );
  const flag = await w.run(['pr', 'list', '--stat', 'OPEN', '-R', 'PROJ/api']);
  assert.is(flag.code, 2);
  assert.match(flag.stderr, 'unknown flag --stat for bbdc pr list (did you mean "--state"?)');
  const global = await w.run(['--jsn']);
  assert.equal(
    [global.code, global.stderr],
    [2, 'error: unknown flag --jsn (did you mean "--json"?); run `bbdc --help`\n'],
  );
  const noCommand = await w.run(['--json']);
  assert.is(noCommand.code, 2);
  assert.equal(noCommand.json().error.message, 'no command given; run `bbdc --help` for the list');
  const nothing = await w.run(['zzzzzzzz']);
  assert.is(nothing.stderr, 'error: unknown command "zzzzzzzz"; run `bbdc --help` for the list\n');
  w.dispose();
});

test("closest: gh's words for bbdc's come first (pr view is pr get, --head is --from)", async () => {
  assert.equal(closest('pr view', ['pr get', 'pr list', 'pr review'])[0], 'pr get');
  assert.equal(closest('repo ls', ['repo get', 'repo list']), ['repo list']);
  assert.equal(closest('--head', ['--help', '--from', '--to']), ['--from', '--help']);
  assert.equal(closest('view', ['get', 'list']), ['get']);
  assert.equal(closest('pr view', ['pr list']), [], 'no synonym without its command, nothing far');
  assert.equal(closest('constructor', ['get']), [], "only the synonyms, not an object's own names");
  const w = createWorld();
  try {
    const view = await w.run(['pr', 'view', '1']);
    assert.is(view.code, 2);
    assert.match(view.stderr, 'did you mean "pr get"?');
    const head = await w.run(['pr', 'create', '--head', 'feature', '--dry-run']);
    assert.is(head.code, 2);
    assert.match(head.stderr, 'did you mean "--from"?');
  } finally {
    w.dispose();
  }
});

test('closest: edit distance within a third of the word, prefixes, closest first', () => {
  assert.equal(closest('lst', ['list', 'get', 'last']), ['last', 'list']);
  assert.equal(closest('mer', ['merge', 'mergeability']), ['merge', 'mergeability']);
  assert.equal(closest('xyz', ['list']), []);
});

const flags: Record<string, FlagSpec> = {
  title: { type: 'string', description: 't', value: 'TEXT' },
  draft: { type: 'boolean', description: 'd' },
  browser: { type: 'boolean', default: true, description: 'b' },
  reviewer: { type: 'string', isMultiple: true, description: 'r' },
  limit: { type: 'number', description: 'l' },
  repo: { type: 'string', shortFlag: 'R', description: 'r' },
  state: { type: 'string', choices: ['OPEN', 'MERGED'], description: 's' },
  web: { type: 'boolean', shortFlag: 'w', description: 'w' },
};
const parse = (...argv: string[]) =>
  parseFlags(argv, flags, [{ name: 'id', required: false, description: '' }], 'pr x');
const fails = (argv: string[], message: string) =>
  assert.throws(
    () => parse(...argv),
    (e: Error) => e.message.includes(message),
    `${argv.join(' ')}: ${message}`,
  );

test('parseFlags: kebab-case in, camelCase out, negation, lists, numbers, defaults, `-` as a value', () => {
  assert.equal(
    parse('7', '--title', 'T', '--draft', '-RPROJ/api', '--reviewer', 'a', '--reviewer=b', '--limit', '5'),
    {
      args: ['7'],
      flags: { title: 'T', draft: true, repo: 'PROJ/api', reviewer: ['a', 'b'], limit: 5, browser: true },
    },
  );
  assert.equal(parse('--no-browser', '--title', '-').flags, { browser: false, title: '-', reviewer: [] });
  assert.equal(parse('--', '--draft').args, ['--draft'], 'after -- everything is an argument');
});

test('parseFlags reads the command line as node:util parseArgs does', () => {
  const flagsOf = (...argv: string[]) => parse(...argv).flags;
  assert.equal(flagsOf('-R', 'PROJ/api').repo, 'PROJ/api');
  assert.equal(flagsOf('--repo=PROJ/api').repo, 'PROJ/api');
  assert.equal(flagsOf('--title=a=b').title, 'a=b', 'only the first = splits');
  assert.equal(flagsOf('--title=--x').title, '--x', 'an inline value may look like a flag');
  assert.equal(flagsOf('--title', '-').title, '-');
  assert.equal(flagsOf('-w').web, true);
  assert.equal(flagsOf('--state', 'merged').state, 'MERGED', 'a choice in any case is the choice');
  assert.equal(
    flagsOf('-wRPROJ/api'),
    { web: true, repo: 'PROJ/api', browser: true, reviewer: [] },
    'a group',
  );
  assert.equal(flagsOf('-w', '--no-web').web, false, 'the last one wins');
  assert.equal(parse('-', '--draft').args, ['-'], 'a lone - is an argument');
  fails(['-x'], 'unknown flag -x for bbdc pr x');
  fails(['-wx'], 'unknown flag -x for bbdc pr x');
  fails(['--no-title'], 'unknown flag --no-title'); // only a boolean has a --no- form
  fails(['--no-web=1'], 'unknown flag --no-web');
  fails(['--web=1'], '--web takes no value (got "1")');
  fails(['-R'], '--repo needs a value');
});

test('parseFlags refuses what it cannot honour, naming the flag', () => {
  fails(['--titel', 'x'], 'unknown flag --titel for bbdc pr x (did you mean "--title"?)');
  fails(['--title'], '--title needs a value (TEXT)');
  fails(['--title', '--draft'], '--title needs a value');
  fails(['--draft=yes'], '--draft takes no value (got "yes")');
  fails(['--limit', 'many'], '--limit "many" must be a number');
  fails(['--state', 'closed'], '--state "closed" must be one of OPEN, MERGED');
  fails(['1', '2'], 'unexpected argument "2" for bbdc pr x');
});

test.run();
