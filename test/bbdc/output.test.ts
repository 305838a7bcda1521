import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { registry } from '../../src/bbdc/registry.ts';
import { createAjv, formatSchemaErrors } from '../../src/core/schema.ts';
import { bulkState } from '../fake-bitbucket/bulk-state.ts';
import { keysState } from '../fake-bitbucket/keys-state.ts';
import { opsState } from '../fake-bitbucket/ops-state.ts';
import { pullRequestsOf } from '../fake-bitbucket/pull-request-state.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { bareRepo, fakeSsh } from './helpers/git-remote.ts';
import { bbdcOnPath, createWorld, memoryKeyring } from './helpers/world.ts';

const test = suite('bbdc output');
const schemasDir = join(import.meta.dirname, '..', '..', 'schemas', 'cli');
const ajv = createAjv();
const load = (rel: string) => JSON.parse(readFileSync(join(schemasDir, rel), 'utf8'));
const envelope = ajv.compile(load('envelope.schema.json'));
const plan = ajv.compile(load('plan.schema.json'));
let fake: Awaited<ReturnType<typeof withFake>>;
// The clone scenarios clone PROJ/api over an ssh stand-in serving this directory.
const remotes = mkdtempSync(join(tmpdir(), 'bbdc-output-remotes-'));
let ssh: ReturnType<typeof fakeSsh>;
test.before(async () => {
  fake = await withFake();
  bareRepo(remotes, 'proj/api.git', { 'README.md': '# api\n' });
  ssh = fakeSsh(remotes, remotes);
});
test.after(async () => {
  await fake.stop();
  rmSync(remotes, { recursive: true, force: true });
});
const esc = String.fromCharCode(27);
const fakePr2Comments = () =>
  pullRequestsOf(fake.state).pullRequests.find((p) => p.projectKey === 'PROJ' && p.id === 2)!.comments;

test('on a terminal: header, aligned columns, colour, truncation to the width', async () => {
  const w = createWorld({
    tty: true,
    columns: 40,
    env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token },
  });
  const r = await w.run(['repo', 'list']);
  const lines = r.stdout.split('\n');
  assert.ok(lines[0].startsWith(`${esc}[1mREPOSITORY`), 'bold header');
  assert.match(lines[1], /^PROJ\/api {2,}api {2,}private$/);
  const noColor = await w.run(['repo', 'list', '--no-color']);
  assert.not.match(noColor.stdout, esc);
  assert.ok(noColor.stdout.startsWith('REPOSITORY'));
  const envNoColor = await w.run(['repo', 'list'], { env: { NO_COLOR: '1' } });
  assert.not.match(envNoColor.stdout, esc);
  const narrow = createWorld({
    tty: true,
    columns: 30,
    env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token },
  });
  const n = await narrow.run(['repo', 'list', '--no-color']);
  assert.ok(
    n.stdout.split('\n').every((l) => l.length <= 30),
    n.stdout,
  );
  assert.match(n.stdout, '…');
  w.dispose();
  narrow.dispose();
});

test('piped: tab-separated rows, no header, no colour, nothing truncated', async () => {
  const w = createWorld({
    tty: false,
    columns: 10,
    env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token },
  });
  const r = await w.run(['repo', 'list', '--project', 'PROJ']);
  assert.is(r.stdout, 'PROJ/api\tapi\tprivate\nPROJ/web\tweb\tprivate\n');
  w.dispose();
});

// A bulk policy for the bulk scenarios: auto-merge on one repository.
const bulkDir = mkdtempSync(join(tmpdir(), 'bbdc-output-bulk-'));
const policyFile = join(bulkDir, 'policy.yaml');
const planFile = join(bulkDir, 'plan.json');
const gpgFile = join(bulkDir, 'key.asc');
writeFileSync(
  gpgFile,
  '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBGschema\n-----END PGP PUBLIC KEY BLOCK-----\n',
);
// Placeholders in scenario arguments: the fake's URL, the bulk operation id, the GPG key file and its id.
const expand = (a: string, w: { configDir: string }) =>
  a
    .replace('{url}', fake.url)
    .replace('{op}', () => readdirSync(join(w.configDir, 'bulk'))[0])
    .replace('{gpg}', gpgFile)
    .replace('{gpgid}', () => keysState(fake.state).gpg[0]?.id ?? 'none')
    .replace('{restriction:branch}', '1')
    .replace('{restriction:project}', '2')
    .replace('{task:repo}', () =>
      String(bulkState(fake.state).defaultTasks.find((t) => t.repo === 'PROJ/api')?.id),
    )
    .replace('{task:project}', '1')
    .replace('{suggestion}', () =>
      String(fakePr2Comments().findLast((c) => c.text.startsWith('```suggestion'))?.id),
    )
    .replace('{required}', () =>
      String(opsState(fake.state).requiredBuilds.find((c) => c.repo === 'PROJ/api')?.id),
    )
    .replace(/\{ssh:([^}]+)\}/, (_, owner) =>
      String(keysState(fake.state).ssh.find((k) => k.owner === owner)?.id),
    );
writeFileSync(
  policyFile,
  'apiVersion: bbdc.io/v1alpha1\nkind: BulkPolicy\nselector: {repositories: [PROJ/api]}\noperations: [{type: autoMerge}]\n',
);
// The bulk output schemas refer to the published bulk documents.
for (const file of readdirSync(join(schemasDir, 'bulk'))) ajv.addSchema(load(join('bulk', file)));

// One scenario per command, run in order in one world; each output is validated against its schema.
const scenarios: [string, string[]][] = [
  ['auth login', ['auth', 'login', '{url}', '--token', credentials.alice.token]],
  ['auth status', ['auth', 'status']],
  ['auth whoami', ['auth', 'whoami']],
  ['auth git-credential', ['auth', 'git-credential', 'get']],
  ['auth setup-git', ['auth', 'setup-git']],
  ['auth token-url', ['auth', 'token-url']],
  ['auth server list', ['auth', 'server', 'list']],
  ['auth server use', ['auth', 'server', 'use', '{url}']],
  ['auth alias add', ['auth', 'alias', 'add', 'extra.example.test']],
  ['auth alias list', ['auth', 'alias', 'list']],
  ['auth alias remove', ['auth', 'alias', 'remove', 'extra.example.test']],
  ['auth alias discover', ['auth', 'alias', 'discover']],
  ['repo list', ['repo', 'list', '--limit', '3']],
  ['repo create', ['repo', 'create', 'schema-check', '--project', 'PROJ']],
  ['repo get', ['repo', 'get', 'PROJ/schema-check']],
  ['repo update', ['repo', 'update', 'PROJ/schema-check', '--description', 'checked']],
  ['repo fork', ['repo', 'fork', 'PROJ/schema-check']],
  ['repo sync run', ['repo', 'sync', 'run', 'master', '-R', '~ALICE/schema-check']],
  ['repo sync enable', ['repo', 'sync', 'enable', '-R', '~alice/schema-check']],
  ['repo sync disable', ['repo', 'sync', 'disable', '-R', '~alice/schema-check']],
  ['repo clone', ['repo', 'clone', 'PROJ/api', 'clone-a']],
  ['clone', ['clone', 'PROJ/api', 'clone-b']],
  ['repo delete', ['repo', 'delete', '~alice/schema-check', '--yes']],
  ['project list', ['project', 'list']],
  ['project get', ['project', 'get', 'PROJ']],
  ['project create', ['project', 'create', 'SCHEMA', '--description', 'checked']],
  ['project update', ['project', 'update', 'SCHEMA', '--name', 'Schema']],
  ['project delete', ['project', 'delete', 'SCHEMA', '--yes']],
  ['branch list', ['branch', 'list', '-R', 'OPS/tools']],
  ['branch create', ['branch', 'create', 'schema', '--from', 'master', '-R', 'OPS/tools']],
  ['branch default set', ['branch', 'default', 'set', 'schema', '-R', 'OPS/tools']],
  ['branch default get', ['branch', 'default', 'get', '-R', 'OPS/tools']],
  ['tag create', ['tag', 'create', 'schema', '-m', 'checked', '-R', 'OPS/tools']],
  [
    'branch restriction create',
    ['branch', 'restriction', 'create', '--type', 'read-only', '--branch', 'main', '-R', 'PROJ/api'],
  ],
  ['branch restriction list', ['branch', 'restriction', 'list', '-R', 'PROJ/api']],
  ['branch restriction get', ['branch', 'restriction', 'get', '{restriction:branch}', '-R', 'PROJ/api']],
  [
    'branch restriction update',
    ['branch', 'restriction', 'update', '{restriction:branch}', '--groups', 'admins', '-R', 'PROJ/api'],
  ],
  [
    'branch restriction delete',
    ['branch', 'restriction', 'delete', '{restriction:branch}', '-R', 'PROJ/api'],
  ],
  [
    'project branch-restriction create',
    [
      'project',
      'branch-restriction',
      'create',
      'PROJ',
      '--type',
      'read-only',
      '--branch',
      'main',
      '-R',
      'PROJ/api',
    ],
  ],
  ['project branch-restriction list', ['project', 'branch-restriction', 'list', 'PROJ', '-R', 'PROJ/api']],
  [
    'project branch-restriction get',
    ['project', 'branch-restriction', 'get', 'PROJ', '{restriction:project}', '-R', 'PROJ/api'],
  ],
  [
    'project branch-restriction update',
    ['project', 'branch-restriction', 'update', 'PROJ', '{restriction:project}', '--groups', 'admins'],
  ],
  [
    'project branch-restriction delete',
    ['project', 'branch-restriction', 'delete', 'PROJ', '{restriction:project}', '-R', 'PROJ/api'],
  ],
  ['tag list', ['tag', 'list', '-R', 'OPS/tools']],
  ['tag view', ['tag', 'view', 'schema', '-R', 'OPS/tools']],
  ['tag delete', ['tag', 'delete', 'schema', '-R', 'OPS/tools']],
  ['branch delete', ['branch', 'delete', 'feature/docs', '-R', 'OPS/tools']],
  ['commit list', ['commit', 'list', '-R', 'OPS/tools']],
  ['commit get', ['commit', 'get', 'master', '-R', 'OPS/tools']],
  ['commit compare', ['commit', 'compare', 'master', 'schema', '-R', 'OPS/tools']],
  ['repo default-task add', ['repo', 'default-task', 'add', '--description', 'Schema', '-R', 'PROJ/api']],
  ['repo default-task list', ['repo', 'default-task', 'list', '-R', 'PROJ/api']],
  [
    'repo default-task update',
    ['repo', 'default-task', 'update', '{task:repo}', '--description', 'Schema 2', '-R', 'PROJ/api'],
  ],
  ['repo default-task delete', ['repo', 'default-task', 'delete', '{task:repo}', '-R', 'PROJ/api']],
  ['project default-task add', ['project', 'default-task', 'add', 'PROJ', '--description', 'Schema']],
  ['project default-task list', ['project', 'default-task', 'list', 'PROJ']],
  [
    'project default-task update',
    ['project', 'default-task', 'update', 'PROJ', '{task:project}', '--description', 'Schema 2'],
  ],
  ['project default-task delete', ['project', 'default-task', 'delete', 'PROJ', '{task:project}']],
  [
    'repo comment create',
    ['repo', 'comment', 'create', 'master', '--body', 'Schema check', '-R', 'OPS/tools'],
  ],
  ['repo comment list', ['repo', 'comment', 'list', 'master', '-R', 'OPS/tools']],
  [
    'repo comment update',
    ['repo', 'comment', 'update', 'master', '500', '--body', 'Schema check 2', '-R', 'OPS/tools'],
  ],
  ['repo comment delete', ['repo', 'comment', 'delete', 'master', '500', '-R', 'OPS/tools']],
  ['ref list', ['ref', 'list', '-R', 'OPS/tools']],
  ['ref resolve', ['ref', 'resolve', 'master', '-R', 'OPS/tools']],
  ['diff refs', ['diff', 'refs', 'v1.0', 'master', '-R', 'OPS/tools']],
  ['diff commit', ['diff', 'commit', 'master', '--stat', '-R', 'OPS/tools']],
  ['repo cat', ['repo', 'cat', 'assets/logo.png', '-R', 'OPS/tools']],
  ['repo browse raw', ['repo', 'browse', 'raw', 'README.md', '-R', 'OPS/tools']],
  ['repo browse file', ['repo', 'browse', 'file', 'README.md', '-R', 'OPS/tools']],
  ['repo browse tree', ['repo', 'browse', 'tree', '-R', 'OPS/tools']],
  ['repo browse blame', ['repo', 'browse', 'blame', 'docs/guide.md', '-R', 'OPS/tools']],
  ['repo browse history', ['repo', 'browse', 'history', 'docs', '-R', 'OPS/tools']],
  ['project permissions show', ['project', 'permissions', 'show', 'OPS']],
  [
    'project permissions users grant',
    ['project', 'permissions', 'users', 'grant', 'OPS', 'bob', '--permission', 'write'],
  ],
  ['project permissions users list', ['project', 'permissions', 'users', 'list', 'OPS']],
  ['project permissions users revoke', ['project', 'permissions', 'users', 'revoke', 'OPS', 'bob']],
  [
    'project permissions groups grant',
    ['project', 'permissions', 'groups', 'grant', 'OPS', 'developers', '--permission', 'write'],
  ],
  ['project permissions groups list', ['project', 'permissions', 'groups', 'list', 'OPS']],
  ['project permissions groups revoke', ['project', 'permissions', 'groups', 'revoke', 'OPS', 'developers']],
  ['repo permissions show', ['repo', 'permissions', 'show', 'OPS/tools']],
  [
    'repo permissions users grant',
    ['repo', 'permissions', 'users', 'grant', 'bob', '--permission', 'write', '-R', 'OPS/tools'],
  ],
  ['repo permissions users list', ['repo', 'permissions', 'users', 'list', '-R', 'OPS/tools']],
  ['repo permissions users revoke', ['repo', 'permissions', 'users', 'revoke', 'bob', '-R', 'OPS/tools']],
  [
    'repo permissions groups grant',
    ['repo', 'permissions', 'groups', 'grant', 'developers', '--permission', 'write', '-R', 'OPS/tools'],
  ],
  ['repo permissions groups list', ['repo', 'permissions', 'groups', 'list', '-R', 'OPS/tools']],
  [
    'repo permissions groups revoke',
    ['repo', 'permissions', 'groups', 'revoke', 'developers', '-R', 'OPS/tools'],
  ],
  ['browse', ['browse', '-R', 'PROJ/api', '42']],
  ['hook list', ['hook', 'list', '-R', 'PROJ/api']],
  ['hook enable', ['hook', 'enable', 'notify-hook', '-R', 'PROJ/api']],
  ['hook disable', ['hook', 'disable', 'notify-hook', '--project', 'PROJ']],
  ['hook configure', ['hook', 'configure', 'notify-hook', '-R', 'PROJ/api', '--set', 'room=ops']],
  ['webhook list', ['webhook', 'list', '-R', 'PROJ/api']],
  ['webhook get', ['webhook', 'get', '1', '-R', 'PROJ/api']],
  [
    'webhook create',
    [
      'webhook',
      'create',
      '-R',
      'PROJ/api',
      '--name',
      'n',
      '--url',
      'https://n.test',
      '--events',
      'pr:opened',
    ],
  ],
  ['webhook update', ['webhook', 'update', '1', '-R', 'PROJ/api', '--name', 'ci']],
  ['webhook test', ['webhook', 'test', '1', '-R', 'PROJ/api']],
  ['webhook stats', ['webhook', 'stats', '1', '-R', 'PROJ/api']],
  ['webhook delete', ['webhook', 'delete', '500', '-R', 'PROJ/api']],
  ['project webhook list', ['project', 'webhook', 'list', 'PROJ']],
  [
    'project webhook create',
    [
      'project',
      'webhook',
      'create',
      'PROJ',
      '--name',
      'p',
      '--url',
      'https://p.test',
      '--events',
      'pr:opened',
    ],
  ],
  ['project webhook stats', ['project', 'webhook', 'stats', 'PROJ', '501']],
  ['project webhook update', ['project', 'webhook', 'update', 'PROJ', '501', '--name', 'schema-2']],
  ['project webhook test', ['project', 'webhook', 'test', 'PROJ', '501']],
  ['project webhook delete', ['project', 'webhook', 'delete', 'PROJ', '501']],
  ['bulk plan', ['bulk', 'plan', '-f', policyFile, '-o', planFile]],
  ['bulk apply', ['bulk', 'apply', '--from-plan', planFile]],
  ['bulk status', ['bulk', 'status', '{op}']],
  ['ai mcp tools', ['ai', 'mcp', 'tools', '--yolo']],
  // The test runner gives suites no stdin, so the server sees end-of-input at once and reports its tools.
  ['ai mcp serve', ['ai', 'mcp', 'serve', '--tools', 'repo_list']],
  ['ai skill show', ['ai', 'skill', 'show']],
  ['ai skill install', ['ai', 'skill', 'install']],
  ['ai skill remove', ['ai', 'skill', 'remove']],
  ['completion bash', ['completion', 'bash']],
  ['completion zsh', ['completion', 'zsh']],
  ['completion fish', ['completion', 'fish']],
  ['pr list', ['pr', 'list', '-R', 'PROJ/api']],
  ['pr get', ['pr', 'get', '1', '-R', 'PROJ/api']],
  ['pr mergeability', ['pr', 'mergeability', '2', '-R', 'PROJ/api']],
  ['pr create', ['pr', 'create', '-R', 'PROJ/api', '-t', 'Schema check', '--from', 'feature/new']],
  ['pr update', ['pr', 'update', '4', '-R', 'PROJ/api', '--title', 'Schema check 2']],
  ['pr reviewer add', ['pr', 'reviewer', 'add', '4', 'bob', '-R', 'PROJ/api']],
  ['pr reviewer remove', ['pr', 'reviewer', 'remove', '4', 'bob', '-R', 'PROJ/api']],
  ['pr review approve', ['pr', 'review', 'approve', '1', '-R', 'PROJ/api']],
  ['pr review needs-work', ['pr', 'review', 'needs-work', '1', '-R', 'PROJ/api']],
  ['pr review unapprove', ['pr', 'review', 'unapprove', '1', '-R', 'PROJ/api']],
  ['pr merge', ['pr', 'merge', '1', '-R', 'PROJ/api']],
  ['pr decline', ['pr', 'decline', '4', '-R', 'PROJ/api']],
  ['pr reopen', ['pr', 'reopen', '4', '-R', 'PROJ/api']],
  ['pr delete', ['pr', 'delete', '4', '-R', 'PROJ/api']],
  ['pr comment list', ['pr', 'comment', 'list', '2', '-R', 'PROJ/api']],
  ['pr comment add', ['pr', 'comment', 'add', '2', '-R', 'PROJ/api', '--body', 'Schema check']],
  ['pr comment resolve', ['pr', 'comment', 'resolve', '2', '100', '-R', 'PROJ/api']],
  ['pr task list', ['pr', 'task', 'list', '2', '-R', 'PROJ/api']],
  ['pr task create', ['pr', 'task', 'create', '2', '-R', 'PROJ/api', '--body', 'Schema check']],
  ['pr task resolve', ['pr', 'task', 'resolve', '2', '101', '-R', 'PROJ/api']],
  ['pr task update', ['pr', 'task', 'update', '2', '101', '--body', 'Schema task', '-R', 'PROJ/api']],
  ['pr task delete', ['pr', 'task', 'delete', '2', '101', '-R', 'PROJ/api']],
  ['pr build status', ['pr', 'build', 'status', '1', '-R', 'PROJ/api']],
  ['pr checks', ['pr', 'checks', '3', '-R', 'PROJ/api']],
  ['pr auto-merge get', ['pr', 'auto-merge', 'get', '2', '-R', 'PROJ/api']],
  ['pr auto-merge enable', ['pr', 'auto-merge', 'enable', '2', '-R', 'PROJ/api']],
  ['pr auto-merge disable', ['pr', 'auto-merge', 'disable', '2', '-R', 'PROJ/api']],
  ['pr diff', ['pr', 'diff', '1', '-R', 'PROJ/api']],
  ['pr commits', ['pr', 'commits', '1', '-R', 'PROJ/api']],
  ['pr files', ['pr', 'files', '1', '-R', 'PROJ/api']],
  ['pr activity list', ['pr', 'activity', 'list', '2', '-R', 'PROJ/api']],
  ['pr participants', ['pr', 'participants', '2', '-R', 'PROJ/api']],
  ['pr default-reviewers', ['pr', 'default-reviewers', '2', '-R', 'PROJ/api']],
  ['pr comment get', ['pr', 'comment', 'get', '2', '100', '-R', 'PROJ/api']],
  [
    'pr comment update',
    ['pr', 'comment', 'update', '2', '100', '-R', 'PROJ/api', '--body', 'Schema check 2'],
  ],
  ['pr comment react', ['pr', 'comment', 'react', '2', '100', 'thumbsup', '-R', 'PROJ/api']],
  ['pr comment delete', ['pr', 'comment', 'delete', '2', '100', '-R', 'PROJ/api']],
  ['pr review get', ['pr', 'review', 'get', '2', '-R', 'PROJ/api']],
  ['pr review complete', ['pr', 'review', 'complete', '2', '--body', 'Schema check', '-R', 'PROJ/api']],
  ['pr review discard', ['pr', 'review', 'discard', '2', '-R', 'PROJ/api']],
  ['pr jira', ['pr', 'jira', '2', '-R', 'PROJ/api']],
  ['pr watch', ['pr', 'watch', '2', '-R', 'PROJ/api']],
  ['pr unwatch', ['pr', 'unwatch', '2', '-R', 'PROJ/api']],
  ['pr merge-base', ['pr', 'merge-base', '2', '-R', 'PROJ/api']],
  ['commit prs', ['commit', 'prs', '04'.repeat(20), '-R', 'PROJ/api']],
  ['pr status', ['pr', 'status']],
  ['repo watch', ['repo', 'watch', '-R', 'PROJ/web']],
  ['repo unwatch', ['repo', 'unwatch', '-R', 'PROJ/web']],
  ['repo archive', ['repo', 'archive', '-R', 'PROJ/web']],
  ['repo unarchive', ['repo', 'unarchive', '-R', 'PROJ/web']],
  ['repo label add', ['repo', 'label', 'add', 'schema', '-R', 'PROJ/web']],
  ['repo label list', ['repo', 'label', 'list', '-R', 'PROJ/web']],
  ['repo label remove', ['repo', 'label', 'remove', 'schema', '-R', 'PROJ/web']],
  ['repo hook-script set', ['repo', 'hook-script', 'set', '2', '--triggers', 'repo-push', '-R', 'PROJ/web']],
  ['repo hook-script list', ['repo', 'hook-script', 'list', '-R', 'PROJ/web']],
  ['repo hook-script remove', ['repo', 'hook-script', 'remove', '2', '-R', 'PROJ/web']],
  ['repo sync status', ['repo', 'sync', 'status', '-R', 'PROJ/web']],
  ['auth token create', ['auth', 'token', 'create', 'schema', '--permissions', 'REPO_READ']],
  ['auth token list', ['auth', 'token', 'list']],
  ['auth token get', ['auth', 'token', 'get', '252973515001']],
  ['auth token update', ['auth', 'token', 'update', '252973515001', '--name', 'schema-2']],
  ['auth token revoke', ['auth', 'token', 'revoke', '252973515001']],
  ['auth gpg-key add', ['auth', 'gpg-key', 'add', '--key-file', '{gpg}']],
  ['auth gpg-key list', ['auth', 'gpg-key', 'list']],
  ['auth gpg-key remove', ['auth', 'gpg-key', 'remove', '{gpgid}']],
  ['auth gpg-key clear', ['auth', 'gpg-key', 'clear', '--yes']],
  [
    'ssh-key add',
    ['ssh-key', 'add', '--key', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHNjaGVtYS1jaGVjay1rZXk schema'],
  ],
  ['ssh-key list', ['ssh-key', 'list']],
  ['ssh-key remove', ['ssh-key', 'remove', '{ssh:alice}']],
  [
    'repo ssh-key add',
    [
      'repo',
      'ssh-key',
      'add',
      '--key',
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHNjaGVtYS1jaGVjay1rZXk schema',
      '-R',
      'PROJ/api',
    ],
  ],
  ['repo ssh-key list', ['repo', 'ssh-key', 'list', '-R', 'PROJ/api']],
  ['repo ssh-key remove', ['repo', 'ssh-key', 'remove', '{ssh:PROJ/api}', '-R', 'PROJ/api']],
  [
    'project ssh-key add',
    [
      'project',
      'ssh-key',
      'add',
      'PROJ',
      '--key',
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHNjaGVtYS1jaGVjay1rZXk schema',
    ],
  ],
  ['project ssh-key list', ['project', 'ssh-key', 'list', 'PROJ']],
  ['project ssh-key remove', ['project', 'ssh-key', 'remove', 'PROJ', '{ssh:PROJ}']],
  [
    'insights report set',
    [
      'insights',
      'report',
      'set',
      '02'.repeat(20),
      'schema',
      '--title',
      'Schema',
      '--data',
      'n=1',
      '-R',
      'PROJ/api',
    ],
  ],
  ['insights report list', ['insights', 'report', 'list', '02'.repeat(20), '-R', 'PROJ/api']],
  ['insights report get', ['insights', 'report', 'get', '02'.repeat(20), 'schema', '-R', 'PROJ/api']],
  [
    'insights annotation add',
    [
      'insights',
      'annotation',
      'add',
      '02'.repeat(20),
      'schema',
      '--severity',
      'low',
      '--message',
      'm',
      '-R',
      'PROJ/api',
    ],
  ],
  [
    'insights annotation set',
    [
      'insights',
      'annotation',
      'set',
      '02'.repeat(20),
      'schema',
      'a1',
      '--severity',
      'low',
      '--message',
      'm',
      '-R',
      'PROJ/api',
    ],
  ],
  ['insights annotation list', ['insights', 'annotation', 'list', '02'.repeat(20), '-R', 'PROJ/api']],
  [
    'insights annotation delete',
    ['insights', 'annotation', 'delete', '02'.repeat(20), 'schema', '-R', 'PROJ/api'],
  ],
  [
    'deployment create',
    [
      'deployment',
      'create',
      '02'.repeat(20),
      '--key',
      'k',
      '--environment',
      'e',
      '--sequence',
      '1',
      '--state',
      'successful',
      '--url',
      'https://x.test',
      '-R',
      'PROJ/api',
    ],
  ],
  [
    'deployment get',
    [
      'deployment',
      'get',
      '02'.repeat(20),
      '--key',
      'k',
      '--environment',
      'e',
      '--sequence',
      '1',
      '-R',
      'PROJ/api',
    ],
  ],
  [
    'deployment delete',
    [
      'deployment',
      'delete',
      '02'.repeat(20),
      '--key',
      'k',
      '--environment',
      'e',
      '--sequence',
      '1',
      '-R',
      'PROJ/api',
    ],
  ],
  ['build status stats', ['build', 'status', 'stats', '02'.repeat(20)]],
  ['build status delete', ['build', 'status', 'delete', '02'.repeat(20), '--key', 'none', '-R', 'PROJ/api']],
  ['insights report delete', ['insights', 'report', 'delete', '02'.repeat(20), 'schema', '-R', 'PROJ/api']],
  ['build status get', ['build', 'status', 'get', '3f1c2e8d9b7a6c5d4e3f2a1b0c9d8e7f6a5b4c3d']],
  [
    'build status set',
    [
      'build',
      'status',
      'set',
      'c'.repeat(40),
      '-R',
      'PROJ/api',
      '--state',
      'FAILED',
      '--key',
      'k',
      '--url',
      'https://k.test',
    ],
  ],
  ['build required list', ['build', 'required', 'list', '-R', 'PROJ/api']],
  ['build required create', ['build', 'required', 'create', '-R', 'PROJ/api', '--builds', 'ci']],
  [
    'build required update',
    ['build', 'required', 'update', '{required}', '--builds', 'ci,lint', '-R', 'PROJ/api'],
  ],
  ['build required delete', ['build', 'required', 'delete', '1', '-R', 'PROJ/api']],
  ['repo settings pull-requests get', ['repo', 'settings', 'pull-requests', 'get', '-R', 'PROJ/api']],
  [
    'repo settings pull-requests update',
    ['repo', 'settings', 'pull-requests', 'update', '--required-approvers', '1', '-R', 'PROJ/api'],
  ],
  ['repo settings auto-merge get', ['repo', 'settings', 'auto-merge', 'get', '-R', 'PROJ/api']],
  ['repo settings auto-merge set', ['repo', 'settings', 'auto-merge', 'set', 'on', '-R', 'PROJ/api']],
  ['repo settings auto-merge delete', ['repo', 'settings', 'auto-merge', 'delete', '-R', 'PROJ/api']],
  ['repo settings auto-decline get', ['repo', 'settings', 'auto-decline', 'get', '-R', 'PROJ/api']],
  ['repo settings auto-decline set', ['repo', 'settings', 'auto-decline', 'set', 'on', '-R', 'PROJ/api']],
  ['repo settings auto-decline delete', ['repo', 'settings', 'auto-decline', 'delete', '-R', 'PROJ/api']],
  ['repo settings reviewer-groups list', ['repo', 'settings', 'reviewer-groups', 'list', '-R', 'PROJ/api']],
  [
    'repo settings reviewer-groups create',
    ['repo', 'settings', 'reviewer-groups', 'create', 'schema', '--users', 'bob', '-R', 'PROJ/api'],
  ],
  [
    'repo settings reviewer-groups users',
    ['repo', 'settings', 'reviewer-groups', 'users', '1', '-R', 'PROJ/api'],
  ],
  [
    'repo settings reviewer-groups update',
    ['repo', 'settings', 'reviewer-groups', 'update', '1', '--name', 'schema-2', '-R', 'PROJ/api'],
  ],
  [
    'repo settings reviewer-groups delete',
    ['repo', 'settings', 'reviewer-groups', 'delete', '1', '-R', 'PROJ/api'],
  ],
  [
    'repo settings default-reviewers list',
    ['repo', 'settings', 'default-reviewers', 'list', '-R', 'PROJ/api'],
  ],
  [
    'repo settings default-reviewers create',
    ['repo', 'settings', 'default-reviewers', 'create', '--reviewers', 'bob', '-R', 'PROJ/api'],
  ],
  [
    'repo settings default-reviewers update',
    ['repo', 'settings', 'default-reviewers', 'update', '1', '--approvals', '0', '-R', 'PROJ/api'],
  ],
  [
    'repo settings default-reviewers delete',
    ['repo', 'settings', 'default-reviewers', 'delete', '1', '-R', 'PROJ/api'],
  ],
  ['search repos', ['search', 'repos', 'api']],
  ['search commits', ['search', 'commits', '--author', 'alice', '-R', 'PROJ/api']],
  ['search prs', ['search', 'prs', 'login', '-R', 'PROJ/api']],
  ['admin health', ['admin', 'health']],
  [
    'api',
    [
      'api',
      'api/latest/projects/PROJ/repos/api/pull-requests/2/comments',
      '-f',
      'text=```suggestion\nx\n```',
    ],
  ],
  [
    'pr comment apply-suggestion',
    ['pr', 'comment', 'apply-suggestion', '2', '{suggestion}', '-R', 'PROJ/api'],
  ],
  ['pr rebase', ['pr', 'rebase', '2', '-R', 'PROJ/api']],
  ['branch model inspect', ['branch', 'model', 'inspect', '-R', 'PROJ/api']],
  ['branch model update', ['branch', 'model', 'update', '--prefix', 'feature=feat/', '-R', 'PROJ/api']],
  [
    'repo settings pull-requests merge-checks list',
    ['repo', 'settings', 'pull-requests', 'merge-checks', 'list', '-R', 'PROJ/api'],
  ],
  ['auth logout', ['auth', 'logout']],
];

// Commands whose --json is validated against their schema in their own suite, and why not here.
const elsewhere: Record<string, string> = {
  'pr checkout': 'runs inside a clone of the repository: test/bbdc/pr-checkout.test.ts',
  update: 'these tests run bbdc from a checkout, which bbdc update refuses: test/bbdc/update.test.ts',
};

test("every command's --json output validates against its schema, inside a valid envelope", async () => {
  assert.equal(
    [...scenarios.map((s) => s[0]), ...Object.keys(elsewhere)].sort(),
    registry.map((e) => e.name).sort(),
    'a scenario for every command',
  );
  const w = createWorld({
    keyring: memoryKeyring(),
    env: { GIT_SSH_COMMAND: ssh.command, GIT_SSH_VARIANT: 'ssh' },
  });
  w.env.PATH = bbdcOnPath(w.dir); // auth setup-git: git runs the bbdc it finds on PATH
  for (const [name, argv] of scenarios) {
    const command = await registry.find((e) => e.name === name)!.load();
    // Commands may share a schema (webhook list, project webhook list): compile each one once.
    const schema = load(join('output', `${command.outputSchema}.schema.json`));
    const validate = ajv.getSchema(schema.$id) ?? ajv.compile(schema);
    const r = await w.run([...argv.map((a) => expand(a, w)), '--json']);
    assert.is(r.code, 0, `${name}: ${r.stdout}${r.stderr}`);
    const out = r.json() as { data: unknown };
    assert.ok(envelope(out), `${name} envelope: ${formatSchemaErrors(envelope.errors).join('; ')}`);
    assert.ok(validate(out.data), `${name} data: ${formatSchemaErrors(validate.errors).join('; ')}`);
    if (command.effect === 'mutating' && command.plan) {
      const dry = await w.run([...argv.map((a) => expand(a, w)), '--json', '--dry-run']);
      if (dry.code === 0)
        assert.ok(plan(dry.json().data), `${name} plan: ${formatSchemaErrors(plan.errors).join('; ')}`);
    }
  }
  w.dispose();
});

test('every output schema has a title and generated types', () => {
  for (const file of readdirSync(join(schemasDir, 'output'))) {
    assert.ok(load(join('output', file)).title, file);
    const generated = join(
      import.meta.dirname,
      '..',
      '..',
      'generated',
      'types',
      'cli',
      'output',
      file.replace('.schema.json', '.ts'),
    );
    assert.match(readFileSync(generated, 'utf8'), 'DO NOT EDIT');
  }
});

test('errors in --json mode are envelopes on stdout with kind, message and exit code', async () => {
  const w = createWorld();
  const r = await w.run(['repo', 'list', '--json']);
  assert.is(r.code, 2);
  assert.is(r.stderr, '');
  assert.ok(envelope(r.json()), formatSchemaErrors(envelope.errors).join('; '));
  assert.equal(r.json().error.kind, 'usage');
  assert.equal(r.json().meta, { contract: 'bbdc.machine', command: 'repo list' });
  w.dispose();
});

test.run();
