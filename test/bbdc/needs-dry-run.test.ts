// #24: every mutating command declares the permission its request needs (CommandDefinition.needs) or says here why
// it has none to declare; then, table-driven over every mutating command with a row in helpers/command-cases.ts:
// a read-only user's dry-run is refused with exit 3 naming the permission and sends no write, and the fake refuses
// that user's real run the same way. An admin's dry-run of the same argv is planned (plan-request.test.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { registry } from '../../src/bbdc/registry.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { mutatingCases as cases, local } from './helpers/command-cases.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc dry-runs know permissions, for every mutating command');
const mutating = (await Promise.all(registry.map((e) => e.load()))).filter((c) => c.effect === 'mutating');

/** Mutating server commands that declare no permission, and why (the 9.4 document's rule for each). */
const noCheck: Record<string, string> = {
  api: 'a raw call: bbdc cannot know what the server will check (its plan says so)',
  'repo create': 'REPO_CREATE on the project, which the API cannot be asked about without trying',
  'project create': 'PROJECT_CREATE, a global permission the API cannot be asked about without trying',
  'repo fork':
    'REPO_READ on the origin and PROJECT_ADMIN on the target, by default your own personal project',
  'pr create': 'REPO_READ on both repositories: anyone who can read may open a pull request',
  'pr update': 'the author or REPO_WRITE: the server decides per pull request',
  'pr delete': 'the author or REPO_ADMIN: the server decides per pull request',
  'pr decline': 'REPO_READ (the 9.4 document)',
  'pr reopen': 'REPO_READ (the 9.4 document)',
  'pr reviewer add':
    "REPO_READ for the author; the document's REPO_WRITE is not what servers enforce (route-permissions.ts)",
  'pr reviewer remove':
    "REPO_READ for the author; the document's REPO_WRITE is not what servers enforce (route-permissions.ts)",
  'pr review approve': 'REPO_READ (the 9.4 document)',
  'pr review unapprove': 'REPO_READ (the 9.4 document)',
  'pr review needs-work': 'REPO_READ (the 9.4 document)',
  'pr review complete': 'REPO_READ: your own review batch',
  'pr review discard': 'REPO_READ: your own review batch',
  'pr comment add': 'REPO_READ (the 9.4 document)',
  'pr comment update': 'the comment author: the server decides per comment',
  'pr comment delete': 'the comment author or REPO_ADMIN: the server decides per comment',
  'pr comment resolve': 'REPO_READ (the 9.4 document)',
  'pr comment react': 'REPO_READ: reactions are your own',
  'pr task create': 'REPO_READ (the 9.4 document)',
  'pr task resolve': 'REPO_READ (the 9.4 document)',
  'pr task update': 'the task author: the server decides per task',
  'pr task delete': 'the task author or REPO_ADMIN: the server decides per task',
  'pr watch': 'REPO_READ (the 9.4 document)',
  'pr unwatch': 'REPO_READ (the 9.4 document)',
  'repo watch': 'REPO_READ: anyone who can read may watch',
  'repo unwatch': 'REPO_READ: anyone who can read may watch',
  'repo comment create': 'REPO_READ (the 9.4 document)',
  'repo comment update': 'the comment author: the server decides per comment',
  'repo comment delete': 'the comment author or REPO_ADMIN: the server decides per comment',
  'build status set': 'LICENSED (the 9.4 document): any user',
  'build status delete': 'LICENSED: any user (the 9.4 document)',
  'deployment create': 'REPO_READ (the 9.4 document)',
  'deployment delete': 'REPO_READ (the 9.4 document)',
  'insights report set': 'REPO_READ: CI users publish reports with read access',
  'insights report delete': 'REPO_READ: CI users publish reports with read access',
  'insights annotation add': 'REPO_READ: CI users publish reports with read access',
  'insights annotation set': 'REPO_READ: CI users publish reports with read access',
  'insights annotation delete': 'REPO_READ: CI users publish reports with read access',
  'ssh-key add': 'your own account',
  'ssh-key remove': 'your own account',
  'auth gpg-key add': 'your own account',
  'auth gpg-key remove': 'your own account',
  'auth gpg-key clear': 'your own account',
  'auth token create':
    'your own account, or the project/repository admin the scope names: checked by the server',
  'auth token update':
    'your own account, or the project/repository admin the scope names: checked by the server',
  'auth token revoke':
    'your own account, or the project/repository admin the scope names: checked by the server',
};

test('every mutating server command declares its permission or is listed with why it has none', () => {
  const server = mutating.filter((c) => !(c.name in local));
  assert.equal(
    server.filter((c) => !c.needs && !(c.name in noCheck)).map((c) => c.name),
    [],
    'declare needs on the command, or list it in noCheck with the rule',
  );
  assert.equal(
    Object.keys(noCheck).filter((n) => !server.some((c) => c.name === n && !c.needs)),
    [],
    'stale noCheck rows',
  );
});

for (const command of mutating.filter((c) => c.needs && c.name in cases)) {
  const c = cases[command.name];
  const { argv, setup = [], stdin } = Array.isArray(c) ? { argv: c } : c;
  test(`${command.name}: bob's dry-run exits 3 naming ${command.needs!.permission}; the fake refuses his run`, async () => {
    const fake = await withFake();
    const as = (user: 'alice' | 'bob') =>
      createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials[user].token }, stdin });
    const alice = as('alice');
    const bob = as('bob');
    try {
      for (const step of setup) assert.is((await alice.run(step)).code, 0, `setup ${step.join(' ')}`);
      const n = fake.requests.length;
      const dry = await bob.run([...argv, '--dry-run', '--json']);
      assert.is(dry.code, 3, dry.stdout);
      const level = command.needs!.permission.split('_')[1];
      assert.match(
        dry.json().error.message,
        new RegExp(
          `^bob lacks (REPO|PROJECT)_${level} on .*, which ${command.needs!.action} needs: the server would refuse it`,
        ),
      );
      assert.equal(
        fake.requests.slice(n).filter((q) => q.method !== 'GET'),
        [],
        'the dry-run sent a write',
      );
      const real = await bob.run([...argv, '--json']);
      assert.is(real.code, 3, `the fake let bob run it: ${real.stdout}`);
    } finally {
      alice.dispose();
      bob.dispose();
      await fake.stop();
    }
  });
}

test.run();
