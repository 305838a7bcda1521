import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { describeCommand } from '../../src/bbdc/cli/command-info.ts';
import { completionScript } from '../../src/bbdc/commands/completion/shell.ts';
import { completionTree } from '../../src/bbdc/completion/tree.ts';
import { groups, loadAll } from '../../src/bbdc/registry.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc completion');
const world = createWorld();
const has = (shell: string) => spawnSync(shell, ['-c', 'true']).status === 0;
const scriptFile = async (shell: 'bash' | 'zsh' | 'fish') => {
  const file = join(world.dir, `bbdc.${shell}`);
  writeFileSync(file, await completionScript(shell));
  return file;
};

/** Runs bash completion for a command line ending at the cursor; returns COMPREPLY. */
function bashComplete(file: string, line: string): string[] {
  const words = line.split(' ');
  const program = [
    `source ${file}`,
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_bbdc',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash text, not a template
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const res = spawnSync('bash', ['--norc', '-c', program], { encoding: 'utf8' });
  assert.is(res.status, 0, res.stderr);
  return res.stdout.split('\n').filter(Boolean);
}

test('the tree holds every registry command, its flags and the global flags', async () => {
  const commands = (await loadAll()).map(describeCommand);
  const tree = completionTree(commands, groups);
  for (const c of commands) {
    const words = c.name.split(' ');
    const parent = words.slice(0, -1).join(' ');
    assert.ok(
      tree.children[parent].some((w) => w.word === words.at(-1)),
      `${c.name} is completed after "bbdc ${parent}"`,
    );
    for (const name of Object.keys(c.flags)) {
      assert.ok(
        tree.flags[c.name].some((f) =>
          f.token.endsWith(name.replace(/[A-Z]/g, (x) => `-${x.toLowerCase()}`)),
        ),
        `${c.name} completes its flag ${name}`,
      );
    }
    assert.ok(tree.flags[c.name].some((f) => f.token === '--json'));
  }
  assert.equal(tree.flags[''].find((f) => f.token === '--log-level')?.choices, [
    'error',
    'warn',
    'info',
    'debug',
  ]);
  const tokens = tree.flags[''].map((f) => f.token);
  for (const t of ['--no-color', '--no-pager'])
    assert.ok(tokens.includes(t), `default-on flags complete as --no-...: ${t}`);
  assert.not.ok(tokens.includes('--color') || tokens.includes('--pager'));
});

test('help writes the default-on flags as they are used: --no-color, --no-pager', async () => {
  const r = await world.run(['pr', 'list', '--help']);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /--no-color\s+No colour/);
  assert.match(r.stdout, /--no-pager\s+Never page/);
});

test('bbdc completion bash prints the script; --json wraps it', async () => {
  const r = await world.run(['completion', 'bash']);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, 'complete -o default -F _bbdc bbdc');
  const j = await world.run(['completion', 'fish', '--json']);
  assert.is(j.json().data.shell, 'fish');
  assert.match(j.json().data.script, 'complete -c bbdc');
});

test('bash: the script parses and completes commands, subcommands, flags and flag values', async () => {
  const file = await scriptFile('bash');
  const syntax = spawnSync('bash', ['-n', file], { encoding: 'utf8' });
  assert.is(syntax.status, 0, syntax.stderr);
  assert.equal(bashComplete(file, 'bbdc au'), ['auth']);
  assert.equal(bashComplete(file, 'bbdc auth server '), ['list', 'use']);
  assert.equal(bashComplete(file, 'bbdc repo list --pro'), ['--project']);
  assert.equal(bashComplete(file, 'bbdc --log-level d'), ['debug']);
  assert.equal(
    bashComplete(file, 'bbdc -R PROJ/repo repo l'),
    ['list', 'label'],
    'a flag value is not a command word',
  );
  assert.equal(bashComplete(file, 'bbdc completion '), ['bash', 'zsh', 'fish']);
  assert.equal(
    bashComplete(file, 'bbdc repo list --project '),
    [],
    'a value without choices falls back to files',
  );
});

test('zsh: the script parses and its helpers walk the command path', async () => {
  const file = await scriptFile('zsh');
  const text = await completionScript('zsh');
  assert.ok(text.startsWith('#compdef bbdc\n'));
  assert.match(text, "'auth:Log in, manage servers, aliases and credentials'");
  if (!has('zsh')) return;
  const syntax = spawnSync('zsh', ['-n', file], { encoding: 'utf8' });
  assert.is(syntax.status, 0, syntax.stderr);
  const program = [
    'compdef() { :; }',
    `source ${file}`,
    '_bbdc_path --host h auth server',
    '_bbdc_described_children auth',
    '_bbdc_choices "" --log-format',
  ].join('\n');
  const res = spawnSync('zsh', ['-f', '-c', program], { encoding: 'utf8' });
  assert.is(res.status, 0, res.stderr);
  const lines = res.stdout.split('\n');
  assert.is(lines[0], 'auth server');
  assert.ok(lines.includes('login:Log in to a Bitbucket server and store the credentials'), res.stdout);
  assert.ok(lines.includes('text json'));
});

test('fish: the script parses and `complete -C` offers commands, flags and choices', async () => {
  const file = await scriptFile('fish');
  const text = await completionScript('fish');
  assert.match(text, "complete -c bbdc -f -n '__bbdc_at \\'auth\\'' -a 'login'");
  if (!has('fish')) return;
  const syntax = spawnSync('fish', ['--no-execute', file], { encoding: 'utf8' });
  assert.is(syntax.status, 0, syntax.stderr);
  const complete = (line: string) => {
    const res = spawnSync('fish', ['--no-config', '-c', `source ${file}; complete -C '${line}'`], {
      encoding: 'utf8',
    });
    assert.is(res.status, 0, res.stderr);
    return res.stdout.split('\n').filter(Boolean);
  };
  assert.ok(
    complete('bbdc auth server ').some((l) => l.startsWith('use\t')),
    'subcommands',
  );
  assert.not.ok(
    complete('bbdc auth server ').some((l) => l.startsWith('login\t')),
    'only this group',
  );
  assert.ok(
    complete('bbdc repo list --pro').some((l) => l.startsWith('--project\t')),
    'flags',
  );
  assert.equal(
    complete('bbdc --log-format ').map((l) => l.split('\t')[0]),
    ['json', 'text'],
    'choices of a flag value',
  );
  assert.ok(
    complete('bbdc -R PROJ/x re').some((l) => l.startsWith('repo\t')),
    'flag values are skipped',
  );
});

test.after(() => world.dispose());
test.run();
