// The process kubelet as a daemon of `testenv up`: runs until SIGTERM, then stops every Keycloak it started.
import { ProcessKubelet } from './kubelet.ts';

const [kubeconfig, runDir, postgresPort, endpointMapFile] = process.argv.slice(2);
const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);
const kubelet = new ProcessKubelet({
  kubeconfig,
  runDir,
  postgresPort: Number(postgresPort),
  endpointMapFile,
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
