// The process kubelet as a daemon of `testenv up`: reads the state file named by its argument, runs until
// SIGTERM, then stops every Keycloak it started.
import { ProcessKubelet } from './kubelet.ts';
import { readState } from './state.ts';

const state = readState(process.argv[2]);
if (!state) throw new Error(`no test environment state at ${process.argv[2]}`);
const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);
const kubelet = new ProcessKubelet({
  kubeconfig: state.kubeconfig,
  runDir: state.runDir,
  postgres: state.postgres,
  endpointMapFile: state.endpointMapFile,
  log,
});
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  log('kubelet: stopping');
  await kubelet.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
await kubelet.start();
log('kubelet: ready');
