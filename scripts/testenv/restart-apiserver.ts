// Restarts the environment's kube-apiserver process with the command line it runs with (same port, certificates
// and etcd), for fault tests: clients see their connections and watches cut and the API server unreachable for
// a few seconds, as in a control-plane upgrade. The state file gets the new PID, so `down` and later suites still
// find a running environment.
import { readFileSync } from 'node:fs';
import { kubeRequest } from './kube-request.ts';
import { startDaemon, stopDaemon, waitReady } from './proc.ts';
import { readState, writeState } from './state.ts';

/** Stops kube-apiserver, starts it again once it is gone, and waits for /readyz; returns how long it was down. */
export async function restartApiserver(file?: string): Promise<{ downMs: number }> {
  const state = readState(file);
  if (!state) throw new Error('no test environment is running: nothing to restart');
  const old = state.daemons.find((d) => d.name === 'kube-apiserver');
  if (!old) throw new Error('the test environment has no kube-apiserver daemon');
  // The exact command line it was started with, read from the kernel rather than re-derived.
  const argv = readFileSync(`/proc/${old.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const [bin, ...args] = argv;
  if (!bin) throw new Error(`cannot read the command line of kube-apiserver (PID ${old.pid})`);
  const stopped = Date.now();
  await stopDaemon(old.pid);
  const daemon = startDaemon('kube-apiserver', bin, args, { logFile: old.logFile });
  await waitReady(
    daemon,
    async () => (await kubeRequest(state.kubeconfig, 'GET', '/readyz')).body === 'ok',
    120_000,
  );
  const downMs = Date.now() - stopped;
  state.daemons = state.daemons.map((d) => (d.pid === old.pid ? daemon : d));
  writeState(state, file);
  return { downMs };
}
