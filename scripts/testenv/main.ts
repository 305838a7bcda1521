// `npm run testenv -- up|down|status|env|build`: the test environment on one machine.
import { describeError, exitCodeOf } from '../../src/core/errors.ts';
import { buildAll } from './build-all.ts';
import { down, status, up } from './env.ts';
import { stateFile } from './paths.ts';
import { envVars, readState } from './state.ts';

const usage = `usage: npm run testenv -- <command>
  up       build or fetch everything, start it, print the env (REALMFORGE_KEYCLOAK=25|26 picks Keycloak)
  down     stop every process up started (by PID) and remove its temp dirs
  status   show each process and the API server's /readyz
  env      print export lines (KUBECONFIG, endpoints) for a shell: eval "$(npm run -s testenv -- env)"
  build    build the Go binaries into the cache without starting anything`;

const log = (line: string) => process.stderr.write(`testenv: ${line}\n`);

function printEnv(): void {
  const state = readState();
  if (!state) throw new Error('the test environment is not up: run `npm run testenv -- up`');
  for (const [k, v] of Object.entries(envVars(state, stateFile())))
    console.log(`export ${k}=${JSON.stringify(v)}`);
}

async function main(command: string | undefined): Promise<number> {
  switch (command) {
    case 'up':
      await up({ log });
      printEnv();
      return 0;
    case 'down':
      await down({ log });
      return 0;
    case 'status': {
      const s = await status();
      for (const line of s.lines) console.log(line);
      return s.up ? 0 : 1;
    }
    case 'env':
      printEnv();
      return 0;
    case 'build':
      await buildAll(log);
      return 0;
    default:
      console.error(usage);
      return command === undefined || command === 'help' ? 0 : 2;
  }
}

try {
  process.exitCode = await main(process.argv[2]);
} catch (e) {
  console.error(`testenv: ${describeError(e)}`);
  process.exitCode = exitCodeOf(e);
}
