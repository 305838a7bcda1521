// Starts the fake Bitbucket for a suite and fails the suite if it saw a request the OpenAPI document lacks.
import * as assert from 'uvu/assert';
import { type FakeBitbucket, startFakeBitbucket } from '../../fake-bitbucket/server.ts';
import { credentials } from '../../fake-bitbucket/state.ts';
import { createWorld } from './world.ts';

type FakeOptions = Omit<NonNullable<Parameters<typeof startFakeBitbucket>[0]>, 'dataset'>;

/** Starts a fake server (with extra options, e.g. a git handler); `stop` closes it and asserts no contract violations. */
export async function withFake(
  dataset: 'small' | 'large' = 'small',
  options: FakeOptions = {},
): Promise<FakeBitbucket & { stop(): Promise<void> }> {
  const fake = await startFakeBitbucket({ ...options, dataset });
  return Object.assign(fake, {
    async stop() {
      await fake.close();
      assert.equal(fake.violations, [], 'requests outside the Bitbucket DC 9.4 OpenAPI document');
    },
  });
}

/**
 * `bbdc <argv>` once, in a fresh world against the suite's fake (a getter: suites start it in `before`), as alice
 * unless another token is given.
 */
export function runAgainst(fake: () => { url: string }) {
  return async (argv: string[], token = credentials.alice.token) => {
    const w = createWorld({ env: { BBDC_URL: fake().url, BBDC_TOKEN: token } });
    try {
      return await w.run(argv);
    } finally {
      w.dispose();
    }
  };
}
