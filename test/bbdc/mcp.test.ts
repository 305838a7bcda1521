import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { maxResultChars } from '../../src/bbdc/mcp/call.ts';
import { registry } from '../../src/bbdc/registry.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc ai mcp');
const bin = join(import.meta.dirname, '..', '..', 'bin', 'bbdc.js');
let fake: Awaited<ReturnType<typeof withFake>>;
let large: Awaited<ReturnType<typeof withFake>>;
const world = createWorld();
test.before(async () => {
  fake = await withFake();
  large = await withFake('large');
});
test.after(async () => {
  await fake.stop();
  await large.stop();
  world.dispose();
});

/** Starts `bbdc ai mcp serve` as a child process and connects the SDK's own client to it over stdio. */
async function session(extra: string[], url = fake.url) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'ai', 'mcp', 'serve', '--host', url, '--token', credentials.alice.token, ...extra],
    env: { PATH: process.env.PATH ?? '', HOME: world.dir, BBDC_CONFIG_DIR: world.configDir },
    cwd: world.dir,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'bbdc-test', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const r = (await client.callTool({ name, arguments: args })) as {
      content: { type: string; text: string }[];
      isError?: boolean;
    };
    return { isError: r.isError === true, text: r.content[0].text };
  };
  const names = async () => (await client.listTools()).tools.map((t) => t.name);
  return { client, call, names, close: () => client.close() };
}

test('ai mcp tools lists every unattended command as SAFE (read-only) or YOLO (mutating)', async () => {
  const r = await world.run(['ai', 'mcp', 'tools', '--json']);
  assert.is(r.code, 0, r.stderr);
  const tools = r.json().data.tools as { name: string; command: string; safety: string; served: boolean }[];
  for (const e of registry) {
    const c = await e.load();
    const t = tools.find((x) => x.command === e.name);
    if (!t) {
      assert.ok(
        /^(auth (login|logout|server use|alias |setup-git|git-credential)|browse|(repo )?clone$|pr checkout$|ai |completion |update$)/.test(
          e.name,
        ),
        `${e.name} is a tool`,
      );
      continue;
    }
    assert.is(t.safety, c.effect === 'safe' ? 'SAFE' : 'YOLO', e.name);
    assert.is(t.served, t.safety === 'SAFE', 'without --yolo only SAFE tools are served');
  }
  assert.not.ok(
    tools.some((t) => t.command === 'update'),
    'replacing bbdc itself is never a tool',
  );
  const human = await world.run(['ai', 'mcp', 'tools']);
  assert.match(human.stdout, /repo_list\tSAFE\tyes\t/);
  assert.match(human.stdout, /repo_create\tYOLO\tno\t/);
  const yolo = (await world.run(['ai', 'mcp', 'tools', '--yolo', '--json'])).json().data.tools;
  assert.ok(yolo.every((t: { served: boolean }) => t.served));
});

// The commands #21 added, as an agent sees them: every read SAFE, every server write YOLO.
const added: Record<string, 'SAFE' | 'YOLO'> = {
  'pr activity list': 'SAFE',
  'pr participants': 'SAFE',
  'pr comment get': 'SAFE',
  'pr comment update': 'YOLO',
  'pr comment delete': 'YOLO',
  'pr review get': 'SAFE',
  'pr review complete': 'YOLO',
  'pr review discard': 'YOLO',
  'pr jira': 'SAFE',
  'repo settings default-reviewers update': 'YOLO',
  'pr default-reviewers': 'SAFE',
  'build required update': 'YOLO',
  'pr comment react': 'YOLO',
  'repo settings reviewer-groups users': 'SAFE',
  'repo settings reviewer-groups update': 'YOLO',
  'branch restriction list': 'SAFE',
  'branch restriction get': 'SAFE',
  'branch restriction create': 'YOLO',
  'branch restriction delete': 'YOLO',
  'project branch-restriction list': 'SAFE',
  'project branch-restriction get': 'SAFE',
  'project branch-restriction create': 'YOLO',
  'project branch-restriction delete': 'YOLO',
  'repo default-task list': 'SAFE',
  'repo default-task add': 'YOLO',
  'repo default-task update': 'YOLO',
  'repo default-task delete': 'YOLO',
  'project default-task list': 'SAFE',
  'project default-task add': 'YOLO',
  'project default-task update': 'YOLO',
  'project default-task delete': 'YOLO',
  'repo comment list': 'SAFE',
  'repo comment create': 'YOLO',
  'repo comment update': 'YOLO',
  'repo comment delete': 'YOLO',
  'webhook stats': 'SAFE',
  'project webhook stats': 'SAFE',
  'pr watch': 'YOLO',
  'pr unwatch': 'YOLO',
  'pr merge-base': 'SAFE',
  'commit prs': 'SAFE',
  'repo cat': 'SAFE',
  'repo browse raw': 'SAFE',
  'repo browse file': 'SAFE',
  'repo browse tree': 'SAFE',
  'repo browse blame': 'SAFE',
  'repo browse history': 'SAFE',
  'pr status': 'SAFE',
  'repo watch': 'YOLO',
  'repo unwatch': 'YOLO',
  'repo archive': 'YOLO',
  'repo unarchive': 'YOLO',
  'repo label list': 'SAFE',
  'repo label add': 'YOLO',
  'repo label remove': 'YOLO',
  'repo sync status': 'SAFE',
  'repo sync enable': 'YOLO',
  'repo sync disable': 'YOLO',
  'ref list': 'SAFE',
  'ref resolve': 'SAFE',
  'diff refs': 'SAFE',
  'diff commit': 'SAFE',
  'insights report list': 'SAFE',
  'insights report get': 'SAFE',
  'insights report set': 'YOLO',
  'insights report delete': 'YOLO',
  'insights annotation list': 'SAFE',
  'insights annotation add': 'YOLO',
  'insights annotation set': 'YOLO',
  'insights annotation delete': 'YOLO',
  'deployment create': 'YOLO',
  'deployment get': 'SAFE',
  'deployment delete': 'YOLO',
  'build status stats': 'SAFE',
  'build status delete': 'YOLO',
  'ssh-key list': 'SAFE',
  'ssh-key add': 'YOLO',
  'ssh-key remove': 'YOLO',
  'repo ssh-key list': 'SAFE',
  'repo ssh-key add': 'YOLO',
  'repo ssh-key remove': 'YOLO',
  'project ssh-key list': 'SAFE',
  'project ssh-key add': 'YOLO',
  'project ssh-key remove': 'YOLO',
  api: 'YOLO',
  'admin health': 'SAFE',
  'branch model inspect': 'SAFE',
  'branch model update': 'YOLO',
  'branch restriction update': 'YOLO',
  'project branch-restriction update': 'YOLO',
  'pr comment apply-suggestion': 'YOLO',
  'pr rebase': 'YOLO',
  'project webhook update': 'YOLO',
  'project webhook test': 'SAFE',
  'repo settings pull-requests merge-checks list': 'SAFE',
  'repo sync run': 'YOLO',
};

test('ai mcp tools lists the daily-loop reads as SAFE and its writes as YOLO', async () => {
  const r = await world.run(['ai', 'mcp', 'tools', '--json']);
  const tools = r.json().data.tools as { command: string; safety: string }[];
  const seen = Object.fromEntries(tools.filter((t) => t.command in added).map((t) => [t.command, t.safety]));
  assert.equal(seen, added);
  assert.not.ok(
    tools.some((t) => t.command === 'pr checkout'),
    'pr checkout writes into the working directory: not a tool',
  );
});

test('--tools and --exclude narrow the list; unknown names and YOLO tools without --yolo are usage errors', async () => {
  const only = (await world.run(['ai', 'mcp', 'tools', '--tools', 'repo list,auth_whoami', '--json'])).json()
    .data;
  assert.equal(
    only.tools.filter((t: { served: boolean }) => t.served).map((t: { name: string }) => t.name),
    ['auth_whoami', 'repo_list'],
  );
  const ex = (await world.run(['ai', 'mcp', 'tools', '--exclude', 'repo_list', '--json'])).json().data;
  assert.not.ok(ex.tools.find((t: { name: string }) => t.name === 'repo_list').served);
  const bad = await world.run(['ai', 'mcp', 'tools', '--tools', 'nope']);
  assert.is(bad.code, 2);
  assert.match(bad.stderr, '--tools: no tool named nope');
  const yolo = await world.run(['ai', 'mcp', 'tools', '--tools', 'repo_create']);
  assert.is(yolo.code, 2);
  assert.match(yolo.stderr, 'add --yolo');
});

test('a default session hides YOLO tools; SAFE tools return the same JSON as --json data', async () => {
  const s = await session([]);
  const names = await s.names();
  assert.ok(names.includes('repo_list'));
  assert.not.ok(names.includes('repo_create'), 'a mutating tool is invisible without --yolo');
  const listed = await s.call('repo_list', { project: 'PROJ' });
  assert.not.ok(listed.isError, listed.text);
  const cli = await world.run(['repo', 'list', '--project', 'PROJ', '--json'], {
    env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token },
  });
  assert.equal(JSON.parse(listed.text), cli.json().data);
  const refused = await s.call('repo_create', { name: 'sneaky', project: 'PROJ' });
  assert.ok(refused.isError);
  assert.match(refused.text, 'no tool named repo_create');
  assert.not.ok(
    fake.state.repos.some((r) => r.slug === 'sneaky'),
    'nothing was created',
  );
  await s.close();
});

test('with --yolo a mutating tool is served: dryRun returns the plan, a call makes the change', async () => {
  const s = await session(['--yolo']);
  assert.ok((await s.names()).includes('repo_create'));
  const plan = await s.call('repo_create', { name: 'from-agent', project: 'PROJ', dryRun: true });
  assert.is(JSON.parse(plan.text).predictedAction, 'create');
  assert.not.ok(fake.state.repos.some((r) => r.slug === 'from-agent'));
  const made = await s.call('repo_create', { name: 'from-agent', project: 'PROJ' });
  assert.not.ok(made.isError, made.text);
  assert.is(JSON.parse(made.text).slug, 'from-agent');
  assert.ok(fake.state.repos.some((r) => r.slug === 'from-agent'));
  const again = await s.call('repo_create', { name: 'from-agent', project: 'PROJ' });
  assert.ok(again.isError);
  assert.equal(JSON.parse(again.text).kind, 'conflict', 'errors are the --json error body');
  await s.close();
});

test('repository tools take explicit project and repository; missing inputs are clear errors', async () => {
  const s = await session([]);
  const tool = (await s.client.listTools()).tools.find((t) => t.name === 'webhook_list')!;
  assert.ok(tool.inputSchema.properties?.project && tool.inputSchema.properties?.repository);
  const missing = await s.call('webhook_list');
  assert.ok(missing.isError);
  assert.match(missing.text, 'pass project and repository');
  const listed = await s.call('webhook_list', { project: 'PROJ', repository: 'api' });
  assert.not.ok(listed.isError, listed.text);
  const unknown = await s.call('repo_list', { colour: 'red' });
  assert.ok(unknown.isError);
  assert.match(unknown.text, 'repo_list has no input colour');
  await s.close();
});

test('results are bounded in size with a note on how to narrow them', async () => {
  const s = await session([], large.url);
  const r = await s.call('repo_list', { project: 'BIG', limit: '1000' });
  assert.ok(r.text.length < maxResultChars + 500, `${r.text.length} characters`);
  assert.match(r.text, /\[truncated: the result has \d+ characters/);
  await s.close();
});

test('one naming rule: project is a key and repository a slug in every tool; positional arguments never shadow them', async () => {
  const r = await world.run(['ai', 'mcp', 'tools', '--yolo', '--json']);
  const names = (r.json().data.tools as { name: string }[]).map((t) => t.name);
  const s = await session(['--yolo']);
  const tools = (await s.client.listTools()).tools;
  for (const t of tools) {
    const props = Object.keys(t.inputSchema.properties ?? {});
    assert.ok(props.includes('project') && props.includes('repository'), `${t.name}: ${props}`);
    // A `key` input may still be a flag of its own (an SSH key's text), never the project key.
    const key = (t.inputSchema.properties as Record<string, { description?: string }> | undefined)?.key;
    assert.not.ok(/project key/i.test(key?.description ?? ''), `${t.name} takes project, not key`);
  }
  assert.equal(tools.map((t) => t.name).sort(), names.sort());
  const repo = await s.call('repo_get', { project: 'PROJ', repository: 'api' });
  assert.not.ok(repo.isError, repo.text);
  assert.is(JSON.parse(repo.text).slug, 'api');
  const project = await s.call('project_get', { project: 'PROJ' });
  assert.not.ok(project.isError, project.text);
  assert.is(JSON.parse(project.text).key, 'PROJ');
  const perms = await s.call('repo_permissions_show', { project: 'PROJ', repository: 'api' });
  assert.not.ok(perms.isError, perms.text);
  const missing = await s.call('repo_get', { project: 'PROJ' });
  assert.ok(missing.isError);
  assert.match(missing.text, 'project and repository');
  await s.close();
});

test('calls in flight are answered before the server exits on end of input', async () => {
  const { spawn } = await import('node:child_process');
  const child = spawn(
    process.execPath,
    [bin, 'ai', 'mcp', 'serve', '--host', large.url, '--token', credentials.alice.token],
    {
      env: { PATH: process.env.PATH ?? '', HOME: world.dir, BBDC_CONFIG_DIR: world.configDir },
      cwd: world.dir,
    },
  );
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  // A call that needs the server (50 repositories), then end of input at once.
  send({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'repo_list', arguments: { limit: '50' } },
  });
  child.stdin.end();
  // A server that never exits must fail the test, not hang the suite.
  const timer = setTimeout(() => child.kill(), 30_000);
  const code = await new Promise((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  const answers = out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const call = answers.find((a) => a.id === 2);
  assert.ok(call, `no answer to the call before exit ${code}: ${out.slice(0, 300)}`);
  const text: string = call.result.content[0].text;
  assert.not.ok(call.result.isError, text.slice(0, 300));
  assert.is(JSON.parse(text).count, 50);
  assert.is(code, 0);
});

test.run();
