// The e2e hook of `npm run test:e2e`: one environment for the whole run, exported to every suite process, torn
// down at the end even on failure or interrupt. An environment already up (`testenv up`) is reused and kept.
import { join } from 'node:path';
import { describeError } from '../../src/core/errors.ts';
import { down, isUp, up } from './env.ts';
import { cacheDir } from './paths.ts';
import { envVars, readState } from './state.ts';

const log = (line: string) => process.stderr.write(`testenv: ${line}\n`);

/** Brings the environment up and exports its variables into process.env; returns the teardown to run at the end. */
export async function prepareE2e(): Promise<() => Promise<void>> {
  const existing = readState();
  if (isUp(existing)) {
    log('reusing the environment that is already up (it stays up)');
    Object.assign(process.env, envVars(existing), { REALMFORGE_TESTENV_REQUIRED: '1' });
    return async () => {};
  }
  process.env.REALMFORGE_TESTENV_STATE = join(cacheDir(), 'testenv', `e2e-${process.pid}.json`);
  let done = false;
  const teardown = async () => {
    if (done) return;
    done = true;
    await down({ log }).catch((e) => log(`teardown failed: ${describeError(e)}`));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      log(`${signal}: tearing down`);
      void teardown().then(() => process.exit(130));
    });
  }
  try {
    const state = await up({ log });
    Object.assign(process.env, envVars(state), { REALMFORGE_TESTENV_REQUIRED: '1' });
  } catch (e) {
    await teardown();
    throw e;
  }
  return teardown;
}
