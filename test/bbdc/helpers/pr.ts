// Shared setup for the pr suites: a world on the fake's PROJ/api as alice (or bob), and a schema check.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createAjv, formatSchemaErrors } from '../../../src/core/schema.ts';
import { pullRequestsOf } from '../../fake-bitbucket/pull-request-state.ts';
import { credentials } from '../../fake-bitbucket/state.ts';
import { withFake } from './fake.ts';
import { createWorld, type WorldOptions } from './world.ts';

type Fake = Awaited<ReturnType<typeof withFake>>;
const ajv = createAjv();
const schemas = join(import.meta.dirname, '..', '..', '..', 'schemas', 'cli');

/** A world pointed at the fake's PROJ/api with the user's token in the environment. */
export function prWorld(fake: Fake, user: 'alice' | 'bob' = 'alice', options: WorldOptions = {}) {
  return createWorld({
    ...options,
    env: {
      BBDC_URL: fake.url,
      BBDC_TOKEN: credentials[user].token,
      BBDC_PROJECT: 'PROJ',
      BBDC_REPO: 'api',
      ...options.env,
    },
  });
}

/** Asserts that `data` validates against schemas/cli/output/<name>.schema.json. */
export function assertSchema(name: string, data: unknown): void {
  const id = `https://realmforge.dev/schemas/cli/output/${name}.schema.json`;
  const validate =
    ajv.getSchema(id) ??
    ajv.compile(JSON.parse(readFileSync(join(schemas, 'output', `${name}.schema.json`), 'utf8')));
  assert.ok(validate(data), `${name}: ${formatSchemaErrors(validate.errors).join('; ')}`);
}

/** Asserts that `data` is a valid dry-run plan. */
export function assertPlan(data: unknown): void {
  const validate =
    ajv.getSchema('https://realmforge.dev/schemas/cli/plan.schema.json') ??
    ajv.compile(JSON.parse(readFileSync(join(schemas, 'plan.schema.json'), 'utf8')));
  assert.ok(validate(data), `plan: ${formatSchemaErrors(validate.errors).join('; ')}`);
}

/** A deep copy of the fake's pull request data, to prove a dry run changed nothing. */
export function snapshot(fake: Fake): string {
  return JSON.stringify(pullRequestsOf(fake.state));
}

/** The requests other than GET sent since `from`. */
export function writesSince(fake: Fake, from: number) {
  return fake.requests.slice(from).filter((q) => q.method !== 'GET');
}

/** The fake's pull request `id` in PROJ/api. */
export function fakePr(fake: Fake, id: number) {
  return pullRequestsOf(fake.state).pullRequests.find((p) => p.projectKey === 'PROJ' && p.id === id)!;
}

/**
 * A suite against a fake server, fresh for each test (`'each'`) or one for the whole suite (`'suite'`): `s.fake` is
 * the current server, `s.run(argv, user)` runs `bbdc <argv>` once in a fresh world as `user` (alice unless bob).
 */
export function fakeSuite(title: string, per: 'each' | 'suite' = 'each') {
  const test = suite(title);
  let current: Fake | undefined;
  const [start, stop] = per === 'each' ? [test.before.each, test.after.each] : [test.before, test.after];
  start(async () => {
    current = await withFake();
  });
  stop(async () => {
    await current?.stop();
  });
  const s = {
    test,
    get fake(): Fake {
      if (!current) throw new Error('the fake server starts before each test');
      return current;
    },
    async run(argv: string[], user: 'alice' | 'bob' = 'alice') {
      const w = prWorld(s.fake, user);
      try {
        return await w.run(argv);
      } finally {
        w.dispose();
      }
    },
  };
  return s;
}
