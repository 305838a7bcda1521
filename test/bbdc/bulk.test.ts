import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { BulkPlan } from '../../generated/types/cli/bulk/plan.ts';
import type { BulkStatus } from '../../generated/types/cli/bulk/status.ts';
import { createAjv, formatSchemaErrors } from '../../src/core/schema.ts';
import { bulkState } from '../fake-bitbucket/bulk-state.ts';
import { grantsOf } from '../fake-bitbucket/core-state.ts';
import { opsState } from '../fake-bitbucket/ops-state.ts';
import { bitbucketError } from '../fake-bitbucket/route-types.ts';
import { repoSettingsRoutes } from '../fake-bitbucket/routes/repo-settings.ts';
import { type FakeBitbucket, startFakeBitbucket } from '../fake-bitbucket/server.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc bulk');
const schemas = join(import.meta.dirname, '..', '..', 'schemas', 'cli', 'bulk');
const ajv = createAjv();
ajv.addSchema(JSON.parse(readFileSync(join(schemas, 'policy.schema.json'), 'utf8')));
const validPlan = ajv.compile(JSON.parse(readFileSync(join(schemas, 'plan.schema.json'), 'utf8')));
const validStatus = ajv.compile(JSON.parse(readFileSync(join(schemas, 'status.schema.json'), 'utf8')));

// One repository's auto-merge setting fails while `outage` is on: the injected failure the resume must recover from.
let outage = false;
let fake: FakeBitbucket;
test.before(async () => {
  fake = await startFakeBitbucket({
    dataset: 'large',
    routes: {
      set_1: {
        auth: 'required',
        handle: (ctx) =>
          outage && ctx.params.repositorySlug === 'repo-0042'
            ? bitbucketError(503, 'Service Unavailable')
            : repoSettingsRoutes.set_1.handle(ctx),
      },
    },
  });
});
test.after(async () => {
  await fake.close();
  assert.equal(fake.violations, [], 'requests outside the Bitbucket DC 9.4 OpenAPI document');
});

const policy = `apiVersion: bbdc.io/v1alpha1
kind: BulkPolicy
metadata:
  name: baseline
selector:
  projectKey: BIG
  slugGlob: "repo-0[01]*"
  repositories: [BIG/repo-0200]
operations:
  - type: repositoryPermission
    user: bob
    permission: REPO_WRITE
  - type: repositoryPermission
    group: developers
    permission: REPO_READ
  - type: webhook
    name: ci
    url: https://ci.example.test/hook
    events: [repo:refs_changed, pr:opened]
  - type: requiredApprovers
    count: 2
  - type: allTasksComplete
  - type: requiredBuilds
    buildParentKeys: [ci-build]
    refMatcher: main
  - type: autoMerge
  - type: autoDecline
    inactivityWeeks: 2
  - type: defaultTask
    description: Update the changelog
`;

const world = () => createWorld({ env: { BBDC_URL: fake.url, BBDC_TOKEN: credentials.alice.token } });
const writesSince = (n: number) => fake.requests.slice(n).filter((r) => r.method !== 'GET');

test('plan: 200 sorted targets with 9 operations each, a stable hash, only reads', async () => {
  const w = world();
  writeFileSync(join(w.dir, 'policy.yaml'), policy);
  const n = fake.requests.length;
  const r = await w.run([
    'bulk',
    'plan',
    '-f',
    join(w.dir, 'policy.yaml'),
    '-o',
    join(w.dir, 'plan.json'),
    '--json',
  ]);
  assert.is(r.code, 0, r.stdout + r.stderr);
  assert.equal(writesSince(n), []);
  const plan = JSON.parse(readFileSync(join(w.dir, 'plan.json'), 'utf8')) as BulkPlan;
  assert.ok(validPlan(plan), formatSchemaErrors(validPlan.errors).join('; '));
  assert.equal(r.json().data.plan, plan);
  assert.equal([plan.apiVersion, plan.kind, plan.host], ['bbdc.io/v1alpha1', 'BulkPlan', fake.url]);
  assert.match(plan.planHash, /^sha256:[0-9a-f]{64}$/);
  assert.is(plan.targets.length, 200);
  assert.is(plan.targets[0].repository, 'BIG/repo-0001');
  assert.is(plan.targets[199].repository, 'BIG/repo-0200', 'the explicit repository joins the glob matches');
  const names = plan.targets.map((t: { repository: string }) => t.repository);
  assert.equal(names, [...names].sort());
  assert.ok(plan.targets.every((t: { operations: unknown[] }) => t.operations.length === 9));
  assert.equal(
    plan.policy.operations[7],
    { type: 'autoDecline', enabled: true, inactivityWeeks: 2 },
    'defaults filled',
  );
  assert.equal(plan.targets[41].operations[6].request, {
    method: 'PUT',
    path: '/rest/api/latest/projects/BIG/repos/repo-0042/settings/auto-merge',
    body: { enabled: true },
  });
  const again = await w.run(['bulk', 'plan', '-f', join(w.dir, 'policy.yaml'), '--json']);
  assert.is(again.json().data.plan.planHash, plan.planHash, 'the same policy and server give the same hash');
  const human = await w.run([
    'bulk',
    'plan',
    '-f',
    join(w.dir, 'policy.yaml'),
    '-o',
    join(w.dir, 'plan.json'),
  ]);
  assert.match(human.stdout, '200 repositories on');
  assert.match(human.stdout, `bbdc bulk apply --from-plan ${join(w.dir, 'plan.json')}`);
  w.dispose();
});

test('apply over 200 repositories: one target fails, its later operations are skipped, --resume completes it', async () => {
  const w = world();
  writeFileSync(join(w.dir, 'policy.yaml'), policy);
  await w.run(['bulk', 'plan', '-f', join(w.dir, 'policy.yaml'), '-o', join(w.dir, 'plan.json')]);
  outage = true;
  const r = await w.run(['bulk', 'apply', '--from-plan', join(w.dir, 'plan.json'), '--json']);
  outage = false;
  assert.is(r.code, 10, 'a failure that outlasts the retries is transient (exit 10)');
  const error = r.json().error;
  const opId = /bulk apply (op-[0-9a-z-]+)/.exec(error.message)![1];
  assert.match(error.message, '1 of 200 repositories failed');
  assert.ok(
    error.details.some((d: string) => d.startsWith('BIG/repo-0042#6 autoMerge: PUT')),
    error.details.join('\n'),
  );
  assert.ok(error.details.includes(`fix the cause, then run: bbdc bulk apply --resume ${opId}`));

  const status = JSON.parse(
    readFileSync(join(w.configDir, 'bulk', opId, 'status.json'), 'utf8'),
  ) as BulkStatus;
  assert.ok(validStatus(status), formatSchemaErrors(validStatus.errors).join('; '));
  assert.equal(status.counts, {
    targets: 200,
    operations: 1800,
    succeeded: 1797,
    failed: 1,
    skipped: 2,
    pending: 0,
  });
  const broken = status.targets.find((t: { repository: string }) => t.repository === 'BIG/repo-0042');
  assert.equal(
    broken!.operations.map((o: { state: string }) => o.state),
    [
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
      'failed',
      'skipped',
      'skipped',
    ],
  );
  const bulk = bulkState(fake.state);
  assert.is(grantsOf(fake.state, 'BIG/repo-0001').users.get('bob'), 'REPO_WRITE');
  assert.is(grantsOf(fake.state, 'BIG/repo-0200').groups.get('developers'), 'REPO_READ');
  assert.is(
    opsState(fake.state).webhooks.filter((h) => h.name === 'ci' && h.target.startsWith('BIG/')).length,
    200,
  );
  const pr = opsState(fake.state).prSettings['BIG/repo-0007'];
  assert.equal([pr.requiredApprovers, pr.requiredAllTasksComplete], [2, true]);
  assert.is(bulk.defaultTasks.length, 199, 'the failed target got no default task');
  assert.not.ok(
    opsState(fake.state).autoDecline['BIG/repo-0042'],
    'nothing after the failure was sent for that target',
  );

  const n = fake.requests.length;
  const resumed = await w.run(['bulk', 'apply', '--resume', opId, '--json']);
  assert.is(resumed.code, 0, resumed.stdout + resumed.stderr);
  const done = resumed.json().data;
  assert.equal(
    [done.state, done.attempts, done.counts.succeeded, done.counts.failed],
    ['succeeded', 2, 1800, 0],
  );
  const touched = new Set(fake.requests.slice(n).map((q) => q.path.split('/repos/')[1]?.split('/')[0]));
  assert.equal([...touched], ['repo-0042'], 'resume retries only the target that did not finish');
  assert.is(writesSince(n).length, 3, 'auto-merge, auto-decline and the default task');
  assert.equal(opsState(fake.state).autoDecline['BIG/repo-0042'], { enabled: true, inactivityWeeks: 2 });

  const shown = await w.run(['bulk', 'status', opId, '--json']);
  assert.equal(shown.json().data, done);
  const human = await w.run(['bulk', 'status', opId]);
  assert.match(human.stdout, `${opId}: succeeded (attempt 2`);
  assert.match(human.stdout, '1800 succeeded, 0 failed, 0 skipped');
  w.dispose();
});

test('applying the same plan again changes nothing that could duplicate', async () => {
  const w = world();
  writeFileSync(
    join(w.dir, 'policy.yaml'),
    policy.replace('slugGlob: "repo-0[01]*"', 'slugGlob: "repo-000[1-3]"'),
  );
  await w.run(['bulk', 'plan', '-f', join(w.dir, 'policy.yaml'), '-o', join(w.dir, 'plan.json')]);
  const first = await w.run(['bulk', 'apply', '--from-plan', join(w.dir, 'plan.json'), '--json']);
  assert.is(first.code, 0, first.stdout);
  const n = fake.requests.length;
  const second = (await w.run(['bulk', 'apply', '--from-plan', join(w.dir, 'plan.json'), '--json'])).json()
    .data;
  assert.not.equal(second.operationId, first.json().data.operationId, 'each apply is its own operation');
  const creates = writesSince(n).filter(
    (q) => q.method === 'POST' && /\/(webhooks|condition|tasks)$/.test(q.path),
  );
  assert.equal(creates, [], 'no webhook, required-builds check or default task is created twice');
  const results = second.targets.flatMap(
    (t: { operations: { type: string; result: string }[] }) => t.operations,
  );
  assert.ok(
    results
      .filter((o: { type: string }) => ['webhook', 'requiredBuilds', 'defaultTask'].includes(o.type))
      .every((o: { result: string }) => o.result === 'unchanged'),
  );
  w.dispose();
});

test('a plan changed after planning is refused and nothing is sent', async () => {
  const w = world();
  writeFileSync(join(w.dir, 'policy.yaml'), policy);
  await w.run(['bulk', 'plan', '-f', join(w.dir, 'policy.yaml'), '-o', join(w.dir, 'plan.json')]);
  const file = join(w.dir, 'plan.json');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace('https://ci.example.test/hook', 'https://evil.example.test/hook'),
  );
  const n = fake.requests.length;
  const r = await w.run(['bulk', 'apply', '--from-plan', file]);
  assert.is(r.code, 2);
  assert.match(r.stderr, `${file} was changed after it was planned: its planHash does not match its content`);
  assert.equal(writesSince(n), []);
  const dry = await w.run(['bulk', 'apply', '--from-plan', file, '--dry-run']);
  assert.is(dry.code, 2, '--dry-run checks the hash too');
  w.dispose();
});

test('Retry-After is honoured during apply', async () => {
  const w = world();
  writeFileSync(
    join(w.dir, 'p.yaml'),
    'apiVersion: bbdc.io/v1alpha1\nkind: BulkPolicy\nselector: {repositories: [PROJ/api]}\noperations: [{type: autoMerge, enabled: false}]\n',
  );
  await w.run(['bulk', 'plan', '-f', join(w.dir, 'p.yaml'), '-o', join(w.dir, 'p.json')]);
  fake.rateLimit(1, 7);
  const r = await w.run(['bulk', 'apply', '--from-plan', join(w.dir, 'p.json'), '--concurrency', '1']);
  assert.is(r.code, 0, r.stderr);
  assert.ok(w.sleeps.includes(7000), `slept ${w.sleeps}`);
  assert.is(opsState(fake.state).autoMerge['PROJ/api'], false);
  w.dispose();
});

test('policy errors name the file, line and JSON path; nothing is read from the server', async () => {
  const w = world();
  const bad = `apiVersion: bbdc.io/v1alpha1
kind: BulkPolicy
selector:
  slugGlob: "*"
operations:
  - type: requiredApprovers
    count: 0
  - type: webhook
    name: ci
    url: not-a-url
    events: [repo:refs_changed]
    colour: blue
  - type: requiredBuilds
    buildParentKeys: [ci]
    refMatcher: "has spaces"
  - type: teleport
`;
  writeFileSync(join(w.dir, 'bad.yaml'), bad);
  const n = fake.requests.length;
  const r = await w.run(['bulk', 'plan', '-f', join(w.dir, 'bad.yaml'), '--json']);
  assert.is(r.code, 2);
  const details: string[] = r.json().error.details;
  const file = join(w.dir, 'bad.yaml');
  assert.ok(details.includes(`${file}:7: operations[0].count: must be >= 1`), details.join('\n'));
  assert.ok(details.includes(`${file}:8: operations[1]: unknown field "colour"`), details.join('\n'));
  assert.ok(
    details.some((d) => d.startsWith(`${file}:10: operations[1].url:`)),
    details.join('\n'),
  );
  assert.ok(
    details.some((d) => d.startsWith(`${file}:16: operations[3].type: must be one of`)),
    details.join('\n'),
  );
  assert.equal(fake.requests.length, n);
  writeFileSync(
    join(w.dir, 'semantic.yaml'),
    bad
      .replace('count: 0', 'count: 2')
      .replace('    colour: blue\n', '')
      .replace('url: not-a-url', 'url: https://x.test')
      .replace('  - type: teleport\n', ''),
  );
  const s = await w.run(['bulk', 'plan', '-f', join(w.dir, 'semantic.yaml')]);
  assert.is(s.code, 2);
  assert.match(s.stderr, 'selector: set projectKey, repositories, or both');
  assert.match(s.stderr, 'operations[2].refMatcher "has spaces" is not a ref matcher');
  writeFileSync(join(w.dir, 'missing.yaml'), policy.replace('[BIG/repo-0200]', '[BIG/nope, BIG/repo-0200]'));
  const m = await w.run(['bulk', 'plan', '-f', join(w.dir, 'missing.yaml')]);
  assert.is(m.code, 2);
  assert.match(m.stderr, 'selector.repositories[0]: repository BIG/nope does not exist');
  const usage = await w.run(['bulk', 'apply']);
  assert.match(usage.stderr, 'pass exactly one of --from-plan PLAN and --resume OPERATION');
  const unknownOp = await w.run(['bulk', 'status', 'op-nope']);
  assert.is(unknownOp.code, 2);
  assert.match(unknownOp.stderr, 'no bulk operation op-nope');
  w.dispose();
});

test.run();
