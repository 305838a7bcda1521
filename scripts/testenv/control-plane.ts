// Starts etcd, kube-apiserver and kube-controller-manager on loopback ports, as envtest does, plus kubeconfigs.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Binaries } from './assets.ts';
import { makePki, type Pki, writeKubeconfig } from './certs.ts';
import { ComponentError } from './errors.ts';
import { get } from './https-get.ts';
import { freePort, portWasBusy, withPortRetry } from './ports.ts';
import { type Daemon, startDaemon, stopDaemon, waitReady } from './proc.ts';

/** What the control plane exposes to the harness and to tests. */
export type ControlPlane = {
  etcdUrl: string;
  apiserverUrl: string;
  kubeconfig: string;
  pki: Pki;
  daemons: Daemon[];
};

const busy = (e: unknown) =>
  e instanceof ComponentError && e.details.some((d) => /already in use|bind:/.test(d));

async function startWithRetry(
  name: string,
  logFile: string,
  launch: () => Promise<{ daemon: Daemon; ready: () => Promise<boolean> }>,
  timeoutMs: number,
): Promise<Daemon> {
  return withPortRetry(
    name,
    async () => {
      const { daemon, ready } = await launch();
      try {
        await waitReady(daemon, ready, timeoutMs);
      } catch (e) {
        await stopDaemon(daemon.pid, 2000);
        if (portWasBusy(logFile))
          throw new ComponentError(`${name} port already in use`, ['address already in use']);
        throw e;
      }
      return daemon;
    },
    busy,
  );
}

/** Starts etcd with its data in `runDir/etcd`; resolves when /health says true. */
async function startEtcd(bin: string, runDir: string): Promise<{ daemon: Daemon; url: string }> {
  const logFile = join(runDir, 'etcd.log');
  let url = '';
  const daemon = await startWithRetry(
    'etcd',
    logFile,
    async () => {
      const [client, peer] = [await freePort(), await freePort()];
      url = `http://127.0.0.1:${client}`;
      const peerUrl = `http://127.0.0.1:${peer}`;
      const args = [
        '--name=testenv',
        `--data-dir=${join(runDir, 'etcd')}`,
        `--listen-client-urls=${url}`,
        `--advertise-client-urls=${url}`,
        `--listen-peer-urls=${peerUrl}`,
        `--initial-advertise-peer-urls=${peerUrl}`,
        `--initial-cluster=testenv=${peerUrl}`,
        '--unsafe-no-fsync',
        '--log-level=warn',
      ];
      const d = startDaemon('etcd', bin, args, { logFile });
      return { daemon: d, ready: async () => (await get(`${url}/health`)).body.includes('"true"') };
    },
    60_000,
  );
  return { daemon, url };
}

/** Starts the control plane; returns its URLs, the admin kubeconfig and the started daemons. */
export async function startControlPlane(
  bins: Binaries,
  runDir: string,
  log: (line: string) => void,
): Promise<ControlPlane> {
  const daemons: Daemon[] = [];
  try {
    const pkiDir = join(runDir, 'pki');
    mkdirSync(pkiDir, { recursive: true });
    const pki = await makePki(pkiDir);
    const etcd = await startEtcd(bins.etcd, runDir);
    daemons.push(etcd.daemon);
    log(`etcd ready at ${etcd.url}`);

    const kubeconfig = join(runDir, 'kubeconfig');
    const tls = {
      ca: readFileSync(pki.caCert),
      cert: readFileSync(pki.adminCert),
      key: readFileSync(pki.adminKey),
    };
    let apiserverUrl = '';
    const apiLog = join(runDir, 'kube-apiserver.log');
    daemons.push(
      await startWithRetry(
        'kube-apiserver',
        apiLog,
        async () => {
          const port = await freePort();
          apiserverUrl = `https://127.0.0.1:${port}`;
          const args = [
            `--etcd-servers=${etcd.url}`,
            '--bind-address=127.0.0.1',
            '--advertise-address=127.0.0.1',
            `--secure-port=${port}`,
            `--tls-cert-file=${pki.servingCert}`,
            `--tls-private-key-file=${pki.servingKey}`,
            `--client-ca-file=${pki.caCert}`,
            '--authorization-mode=Node,RBAC',
            '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
            `--service-account-key-file=${pki.saPub}`,
            `--service-account-signing-key-file=${pki.saKey}`,
            '--service-cluster-ip-range=10.0.0.0/24',
            '--endpoint-reconciler-type=none',
            '--allow-privileged=true',
            `--cert-dir=${join(runDir, 'apiserver-certs')}`,
          ];
          const d = startDaemon('kube-apiserver', bins.kubeApiserver, args, { logFile: apiLog });
          return { daemon: d, ready: async () => (await get(`${apiserverUrl}/readyz`, tls)).body === 'ok' };
        },
        120_000,
      ),
    );
    writeKubeconfig(kubeconfig, apiserverUrl, pki, 'admin');
    log(`kube-apiserver ready at ${apiserverUrl}`);

    if (bins.kubeControllerManager) {
      const kcmConfig = join(runDir, 'kcm.kubeconfig');
      writeKubeconfig(kcmConfig, apiserverUrl, pki, 'kcm');
      const kcmLog = join(runDir, 'kube-controller-manager.log');
      daemons.push(
        await startWithRetry(
          'kube-controller-manager',
          kcmLog,
          async () => {
            const port = await freePort();
            const args = [
              `--kubeconfig=${kcmConfig}`,
              `--authentication-kubeconfig=${kcmConfig}`,
              `--authorization-kubeconfig=${kcmConfig}`,
              '--bind-address=127.0.0.1',
              `--secure-port=${port}`,
              `--cert-dir=${join(runDir, 'kcm-certs')}`,
              '--leader-elect=false',
              '--use-service-account-credentials=true',
              `--service-account-private-key-file=${pki.saKey}`,
              `--root-ca-file=${pki.caCert}`,
              `--cluster-signing-cert-file=${pki.caCert}`,
              `--cluster-signing-key-file=${pki.caKey}`,
              // No real nodes: the process kubelet registers one and keeps its pods; node lifecycle would evict them.
              '--controllers=*,-nodelifecycle,-nodeipam,-cloud-node-lifecycle,-service-lb-controller,-route',
            ];
            const d = startDaemon('kube-controller-manager', bins.kubeControllerManager!, args, {
              logFile: kcmLog,
            });
            const url = `https://127.0.0.1:${port}/healthz`;
            return { daemon: d, ready: async () => (await get(url, { insecure: true })).body === 'ok' };
          },
          120_000,
        ),
      );
      log('kube-controller-manager ready');
    }
    return { etcdUrl: etcd.url, apiserverUrl, kubeconfig, pki, daemons };
  } catch (e) {
    for (const d of daemons.reverse()) await stopDaemon(d.pid);
    throw e;
  }
}
