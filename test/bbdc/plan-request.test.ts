// plan == request: for every mutating command in the registry, the dry-run's planned request is exactly the first
// write the real run sends (method, path with query, body), on a fresh fake each time. A command added to the
// registry without a row here fails the first test, so no mutating command goes unchecked.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { registry } from '../../src/bbdc/registry.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc dry-run plan == request, for every mutating command');

/** Commands that change only local files (configuration, skills, the executable) or run git: nothing to compare. */
const local: Record<string, string> = {
  'auth login': 'writes the local configuration',
  'auth logout': 'writes the local configuration',
  'auth server use': 'writes the local configuration',
  'auth alias add': 'writes the local configuration',
  'auth alias remove': 'writes the local configuration',
  'auth alias discover': 'writes the local configuration',
  'ai skill install': 'writes a local file',
  'ai skill remove': 'removes a local file',
  update: 'replaces the local executable',
  'repo clone': 'runs git clone',
  clone: 'runs git clone',
  'bulk apply': 'applies a reviewed plan file (many requests); tested in bulk.test.ts',
};

const api = ['-R', 'PROJ/api'];
/** A run: its argv, optionally commands run first (as the same user) to set the scene, and bob instead of alice. */
type Case = string[] | { argv: string[]; setup?: string[][]; as?: 'bob' };
/** One real-run argv per server-side mutating command, valid on a fresh small fake, that changes something. */
const cases: Record<string, Case> = {
  'repo create': ['repo', 'create', 'fresh', '--project', 'PROJ'],
  'repo update': ['repo', 'update', 'PROJ/web', '--description', 'checked'],
  'repo delete': ['repo', 'delete', 'PROJ/web', '--yes'],
  'repo fork': ['repo', 'fork', 'PROJ/web'],
  'project create': ['project', 'create', 'FRESH', '--description', 'checked'],
  'project update': ['project', 'update', 'OPS', '--name', 'Ops'],
  'project delete': {
    setup: [['project', 'create', 'FRESH']],
    argv: ['project', 'delete', 'FRESH', '--yes'],
  },
  'branch create': ['branch', 'create', 'fresh', '--from', 'master', '-R', 'OPS/tools'],
  'branch delete': ['branch', 'delete', 'feature/docs', '-R', 'PROJ/web'],
  'branch default set': ['branch', 'default', 'set', 'feature/docs', '-R', 'PROJ/web'],
  'tag create': ['tag', 'create', 'fresh', '-m', 'checked', '-R', 'OPS/tools'],
  'tag delete': ['tag', 'delete', 'v1.0', '-R', 'PROJ/web'],
  'project permissions users grant': [
    'project',
    'permissions',
    'users',
    'grant',
    'OPS',
    'bob',
    '--permission',
    'write',
  ],
  'project permissions users revoke': {
    setup: [['project', 'permissions', 'users', 'grant', 'OPS', 'bob', '--permission', 'write']],
    argv: ['project', 'permissions', 'users', 'revoke', 'OPS', 'bob'],
  },
  'project permissions groups grant': [
    'project',
    'permissions',
    'groups',
    'grant',
    'OPS',
    'developers',
    '--permission',
    'write',
  ],
  'project permissions groups revoke': {
    setup: [['project', 'permissions', 'groups', 'grant', 'OPS', 'developers', '--permission', 'write']],
    argv: ['project', 'permissions', 'groups', 'revoke', 'OPS', 'developers'],
  },
  'repo permissions users grant': [
    'repo',
    'permissions',
    'users',
    'grant',
    'bob',
    '--permission',
    'write',
    '-R',
    'OPS/tools',
  ],
  'repo permissions users revoke': {
    setup: [['repo', 'permissions', 'users', 'grant', 'bob', '--permission', 'write', '-R', 'OPS/tools']],
    argv: ['repo', 'permissions', 'users', 'revoke', 'bob', '-R', 'OPS/tools'],
  },
  'repo permissions groups grant': [
    'repo',
    'permissions',
    'groups',
    'grant',
    'developers',
    '--permission',
    'write',
    '-R',
    'OPS/tools',
  ],
  'repo permissions groups revoke': {
    setup: [
      ['repo', 'permissions', 'groups', 'grant', 'developers', '--permission', 'write', '-R', 'OPS/tools'],
    ],
    argv: ['repo', 'permissions', 'groups', 'revoke', 'developers', '-R', 'OPS/tools'],
  },
  'hook enable': ['hook', 'enable', 'notify-hook', ...api],
  'hook disable': ['hook', 'disable', 'notify-hook', '--project', 'PROJ'],
  'hook configure': ['hook', 'configure', 'notify-hook', ...api, '--set', 'room=ops'],
  'webhook create': [
    'webhook',
    'create',
    ...api,
    '--name',
    'n',
    '--url',
    'https://n.test',
    '--events',
    'pr:opened',
  ],
  'webhook update': ['webhook', 'update', '1', ...api, '--name', 'renamed'],
  'webhook delete': ['webhook', 'delete', '1', ...api],
  'project webhook create': [
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
  'project webhook delete': ['project', 'webhook', 'delete', 'PROJ', '2'],
  'pr create': ['pr', 'create', ...api, '-t', 'Fresh', '--from', 'feature/new'],
  'pr update': ['pr', 'update', '2', ...api, '--title', 'Retitled'],
  'pr merge': ['pr', 'merge', '1', ...api],
  'pr decline': ['pr', 'decline', '2', ...api],
  'pr reopen': ['pr', 'reopen', '3', ...api],
  'pr delete': ['pr', 'delete', '2', ...api],
  'pr reviewer add': ['pr', 'reviewer', 'add', '1', 'alice', ...api],
  'pr reviewer remove': ['pr', 'reviewer', 'remove', '2', 'bob', ...api],
  'pr review approve': {
    setup: [['pr', 'review', 'unapprove', '2', ...api]],
    as: 'bob',
    argv: ['pr', 'review', 'approve', '2', ...api],
  },
  'pr review unapprove': { as: 'bob', argv: ['pr', 'review', 'unapprove', '2', ...api] },
  'pr review needs-work': { as: 'bob', argv: ['pr', 'review', 'needs-work', '2', ...api] },
  'pr comment add': ['pr', 'comment', 'add', '2', ...api, '--body', 'Checked'],
  'pr comment resolve': ['pr', 'comment', 'resolve', '1', '10', ...api],
  'pr task create': ['pr', 'task', 'create', '2', ...api, '--body', 'Checked'],
  'pr task resolve': ['pr', 'task', 'resolve', '1', '15', ...api],
  'pr task delete': ['pr', 'task', 'delete', '1', '15', ...api],
  'pr auto-merge enable': ['pr', 'auto-merge', 'enable', '2', ...api],
  'pr auto-merge disable': {
    setup: [['pr', 'auto-merge', 'enable', '2', ...api]],
    argv: ['pr', 'auto-merge', 'disable', '2', ...api],
  },
  'build status set': [
    'build',
    'status',
    'set',
    'c'.repeat(40),
    ...api,
    '--state',
    'FAILED',
    '--key',
    'k',
    '--url',
    'https://k.test',
  ],
  'build required create': ['build', 'required', 'create', ...api, '--builds', 'ci'],
  'build required delete': ['build', 'required', 'delete', '1', ...api],
  'repo settings pull-requests update': [
    'repo',
    'settings',
    'pull-requests',
    'update',
    '--required-approvers',
    '1',
    ...api,
  ],
  'repo settings auto-merge set': ['repo', 'settings', 'auto-merge', 'set', 'on', ...api],
  'repo settings auto-merge delete': {
    setup: [['repo', 'settings', 'auto-merge', 'set', 'off', ...api]],
    argv: ['repo', 'settings', 'auto-merge', 'delete', ...api],
  },
  'repo settings auto-decline set': ['repo', 'settings', 'auto-decline', 'set', 'on', ...api],
  'repo settings auto-decline delete': {
    setup: [['repo', 'settings', 'auto-decline', 'set', 'on', ...api]],
    argv: ['repo', 'settings', 'auto-decline', 'delete', ...api],
  },
  'repo settings reviewer-groups create': [
    'repo',
    'settings',
    'reviewer-groups',
    'create',
    'fresh',
    '--users',
    'bob',
    ...api,
  ],
  'repo settings reviewer-groups delete': ['repo', 'settings', 'reviewer-groups', 'delete', '1', ...api],
  'repo settings default-reviewers create': [
    'repo',
    'settings',
    'default-reviewers',
    'create',
    '--reviewers',
    'bob',
    ...api,
  ],
  'repo settings default-reviewers delete': ['repo', 'settings', 'default-reviewers', 'delete', '1', ...api],
};

const mutating = (await Promise.all(registry.map((e) => e.load()))).filter((c) => c.effect === 'mutating');

test('every mutating command has a row here (or is local-only, with the reason)', () => {
  const missing = mutating.map((c) => c.name).filter((n) => !(n in cases) && !(n in local));
  assert.equal(missing, [], 'add an argv to `cases` in test/bbdc/plan-request.test.ts');
  const stale = Object.keys(cases).filter((n) => !mutating.some((c) => c.name === n));
  assert.equal(stale, []);
});

// A plan shows a webhook secret as *** (plans are printed and logged); everything else must be byte-equal.
const masked = (body: any) =>
  body?.configuration?.secret === undefined
    ? body
    : { ...body, configuration: { ...body.configuration, secret: '***' } };

for (const [name, c] of Object.entries(cases)) {
  const { argv, setup = [], as } = Array.isArray(c) ? { argv: c } : c;
  test(`${name}: the dry-run plans the request the run sends`, async () => {
    const fake = await withFake();
    const token = credentials[as ?? 'alice'].token;
    const w = createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: token } });
    try {
      for (const step of setup) {
        const r = await w.run(step);
        assert.is(r.code, 0, `setup ${step.join(' ')}: ${r.stderr}`);
      }
      const before = fake.requests.length;
      const dry = await w.run([...argv, '--dry-run', '--json']);
      assert.is(dry.code, 0, `dry-run: ${dry.stdout}${dry.stderr}`);
      const plan = dry.json().data;
      assert.ok(plan.predictedAction !== 'no-op', `${name}: pick arguments that change something`);
      assert.equal(
        fake.requests.slice(before).filter((q) => q.method !== 'GET'),
        [],
        'the dry-run sent a write',
      );
      const n = fake.requests.length;
      const real = await w.run([...argv, '--json']);
      assert.is(real.code, 0, `run: ${real.stdout}${real.stderr}`);
      const write = fake.requests.slice(n).find((q) => q.method !== 'GET');
      assert.ok(write, 'the run sent no write');
      const query = write.query.toString();
      assert.equal(
        { method: plan.action.method, path: plan.action.path, body: plan.action.body },
        { method: write.method, path: `${write.path}${query ? `?${query}` : ''}`, body: masked(write.body) },
      );
    } finally {
      w.dispose();
      await fake.stop();
    }
  });
}

test.run();
