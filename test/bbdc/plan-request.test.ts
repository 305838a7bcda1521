// plan == request: for every mutating command in the registry, the dry-run's planned request is exactly the first
// write the real run sends (method, path with query, body), on a fresh fake each time. A command added to the
// registry without a row in helpers/command-cases.ts fails the first test, so no mutating command goes unchecked.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { registry } from '../../src/bbdc/registry.ts';
import { credentials } from '../fake-bitbucket/state.ts';
import { mutatingCases as cases, local } from './helpers/command-cases.ts';
import { withFake } from './helpers/fake.ts';
import { createWorld } from './helpers/world.ts';

const test = suite('bbdc dry-run plan == request, for every mutating command');

const mutating = (await Promise.all(registry.map((e) => e.load()))).filter((c) => c.effect === 'mutating');

test('every mutating command has a row here (or is local-only, with the reason)', () => {
  const missing = mutating.map((c) => c.name).filter((n) => !(n in cases) && !(n in local));
  assert.equal(missing, [], 'add an argv to `mutatingCases` in test/bbdc/helpers/command-cases.ts');
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
