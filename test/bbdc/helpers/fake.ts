// Starts the fake Bitbucket for a suite and fails the suite if it saw a request the OpenAPI document lacks.
import * as assert from 'uvu/assert';
import { type FakeBitbucket, startFakeBitbucket } from '../../fake-bitbucket/server.ts';

/** Starts a fake server; `stop` closes it and asserts no contract violations happened. */
export async function withFake(
  dataset: 'small' | 'large' = 'small',
): Promise<FakeBitbucket & { stop(): Promise<void> }> {
  const fake = await startFakeBitbucket({ dataset });
  return Object.assign(fake, {
    async stop() {
      await fake.close();
      assert.equal(fake.violations, [], 'requests outside the Bitbucket DC 9.4 OpenAPI document');
    },
  });
}
