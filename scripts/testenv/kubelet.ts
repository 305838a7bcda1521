// The process kubelet: a node that runs each pod of a Keycloak Deployment labelled by the operator as a local
// Keycloak process. The real Deployment and ReplicaSet controllers turn the pod status it reports into the
// Deployment's ready and available replicas, so the status the operator reads is the API server's own. It also
// creates the databases that CNPG `Database` objects declare (cnpg-databases.ts), and mounts a pod's Secret and
// ConfigMap volumes (kubelet-volumes.ts).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig, type V1Pod, type V1Service } from '@kubernetes/client-node';
import { reconcileDatabases } from './cnpg-databases.ts';
import { keycloakReady, spawnKeycloak } from './keycloak.ts';
import { ContainerConfigError, heapFromLimit, mapClusterAddresses, resolveEnv } from './kubelet-env.ts';
import { projectVolumes } from './kubelet-volumes.ts';
import type { Postgres } from './postgres.ts';
import { alive, type Daemon, stopDaemon } from './proc.ts';

/** The node every pod of this kubelet is bound to. */
export const nodeName = 'realmforge-process-kubelet';
/** Pods this kubelet runs: those of the Keycloak Deployments the operator manages. */
export const podSelector = 'app.kubernetes.io/name=keycloak,app.kubernetes.io/managed-by=realmforge';

type Proc = {
  uid: string;
  key: string;
  daemon?: Daemon;
  starting: boolean;
  ready: boolean;
  restarts: number;
  startedAt?: Date;
  notBefore: number;
  ports: Record<number, number>;
  /** The management port as the container sees it (KC_HTTP_MANAGEMENT_PORT, 9000 by default). */
  managementPort: number;
  waiting?: { reason: string; message: string };
  lastExit?: { finishedAt: Date; startedAt: Date };
  reported?: string;
};

export type KubeletOptions = {
  kubeconfig: string;
  runDir: string;
  postgres: Pick<Postgres, 'bin' | 'socketDir' | 'port'>;
  endpointMapFile: string;
  log: (line: string) => void;
  pollMs?: number;
};

/** Runs Keycloak pods as processes; start() registers the node and polls, stop() ends every process it started. */
export class ProcessKubelet {
  private readonly core: CoreV1Api;
  private readonly procs = new Map<string, Proc>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private endpoints: Record<string, string> = {};

  private readonly options: KubeletOptions;

  constructor(options: KubeletOptions) {
    this.options = options;
    const kc = new KubeConfig();
    kc.loadFromFile(options.kubeconfig);
    this.core = kc.makeApiClient(CoreV1Api);
    writeFileSync(options.endpointMapFile, `${JSON.stringify({ endpoints: {} })}\n`);
  }

  /** Registers the node and starts the reconcile loop. */
  async start(): Promise<void> {
    const node = { metadata: { name: nodeName, labels: { 'kubernetes.io/hostname': nodeName } } };
    await this.core.createNode({ body: node }).catch((e) => {
      if (e?.code !== 409) throw e;
    });
    // The controller manager's node controllers may update the new Node at the same moment (409): read again.
    for (let attempt = 1; ; attempt++) {
      const current = await this.core.readNode({ name: nodeName });
      const now = new Date();
      current.status = {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'ProcessKubeletReady',
            lastHeartbeatTime: now,
            lastTransitionTime: now,
          },
        ],
        addresses: [{ type: 'InternalIP', address: '127.0.0.1' }],
      };
      const conflict = await this.core.replaceNodeStatus({ name: nodeName, body: current }).then(
        () => false,
        (e) => {
          if (e?.code !== 409 || attempt >= 5) throw e;
          return true;
        },
      );
      if (!conflict) break;
    }
    const tick = () => {
      if (this.stopped) return;
      this.running = this.sync()
        .catch((e) => this.options.log(`kubelet: sync failed: ${e?.message ?? e}`))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.options.pollMs ?? 1000);
        });
    };
    tick();
  }

  /** Stops the loop and every Keycloak process this kubelet started. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    await Promise.all([...this.procs.values()].map((p) => (p.daemon ? stopDaemon(p.daemon.pid) : undefined)));
    this.procs.clear();
    this.writePids();
  }

  /** The PID of each running Keycloak process by pod (namespace/name); also written to kubelet-pids.json. */
  pids(): Record<string, number> {
    return Object.fromEntries(
      [...this.procs.values()].flatMap((p) => (p.daemon ? [[p.key, p.daemon.pid]] : [])),
    );
  }

  private writePids(): void {
    const file = join(this.options.runDir, 'kubelet-pids.json');
    writeFileSync(`${file}.tmp`, `${JSON.stringify(this.pids())}\n`);
    renameSync(`${file}.tmp`, file);
  }

  private async sync(): Promise<void> {
    const pods = (await this.core.listPodForAllNamespaces({ labelSelector: podSelector })).items;
    const seen = new Set<string>();
    for (const pod of pods) {
      const uid = pod.metadata?.uid ?? '';
      seen.add(uid);
      await this.syncPod(pod).catch((e) => this.options.log(`kubelet: ${keyOf(pod)}: ${e?.message ?? e}`));
    }
    for (const [uid, p] of this.procs) {
      if (seen.has(uid)) continue;
      if (p.daemon) await stopDaemon(p.daemon.pid);
      this.procs.delete(uid);
      this.options.log(`kubelet: ${p.key}: pod gone, process stopped`);
    }
    this.writePids();
    await this.publishEndpoints(pods);
    await reconcileDatabases(this.options.kubeconfig, this.options.postgres, this.options.log);
  }

  private async syncPod(pod: V1Pod): Promise<void> {
    const name = pod.metadata?.name ?? '';
    const namespace = pod.metadata?.namespace ?? '';
    if (pod.spec?.nodeName && pod.spec.nodeName !== nodeName) return;
    if (pod.metadata?.deletionTimestamp) {
      const p = this.procs.get(pod.metadata.uid ?? '');
      if (p?.daemon) await stopDaemon(p.daemon.pid);
      await this.core.deleteNamespacedPod({ name, namespace, gracePeriodSeconds: 0 }).catch(() => undefined);
      return;
    }
    if (!pod.spec?.nodeName) {
      const body = { metadata: { name }, target: { apiVersion: 'v1', kind: 'Node', name: nodeName } };
      await this.core.createNamespacedPodBinding({ name, namespace, body });
      return;
    }
    const uid = pod.metadata?.uid ?? '';
    let p = this.procs.get(uid);
    if (!p) {
      p = {
        uid,
        key: keyOf(pod),
        starting: false,
        ready: false,
        restarts: 0,
        notBefore: 0,
        ports: {},
        managementPort: 9000,
      };
      this.procs.set(uid, p);
    }
    if (p.daemon && !alive(p.daemon.pid)) {
      this.options.log(`kubelet: ${p.key}: process ${p.daemon.pid} exited; log ${p.daemon.logFile}`);
      p.lastExit = { startedAt: p.startedAt ?? new Date(), finishedAt: new Date() };
      p.daemon = undefined;
      p.ready = false;
      p.restarts += 1;
      p.notBefore = Date.now() + Math.min(5000 * 2 ** (p.restarts - 1), 60_000);
    }
    if (!p.daemon && !p.starting && Date.now() >= p.notBefore) {
      p.starting = true;
      this.startProcess(pod, p).finally(() => {
        p.starting = false;
      });
    }
    if (p.daemon)
      p.ready = await keycloakReady(`http://127.0.0.1:${p.ports[p.managementPort]}`).catch(() => false);
    await this.reportStatus(pod, p);
  }

  private async startProcess(pod: V1Pod, p: Proc): Promise<void> {
    const container = pod.spec?.containers?.[0];
    try {
      if (!container) throw new ContainerConfigError('pod has no container');
      const version = /:(\d+\.\d+\.\d+)$/.exec(container.image ?? '')?.[1];
      if (!version)
        throw new ContainerConfigError(
          `image ${container.image} has no x.y.z tag to pick a Keycloak version`,
        );
      const command = container.command ?? [];
      if (command.length && !/kc\.sh$/.test(command[0]))
        throw new ContainerConfigError(`command ${command[0]} is not kc.sh`);
      const raw = await resolveEnv(pod, container, (kind, ns, name) => this.readData(kind, ns, name));
      const env = mapClusterAddresses(
        { ...heapFromLimit(container), ...raw },
        {
          postgresPort: this.options.postgres.port,
          endpoints: this.endpoints,
        },
      );
      const podDir = `kubelet-${p.key.replace('/', '_')}`;
      const mounts = await projectVolumes(
        pod,
        container,
        (kind, ns, name) => this.readRaw(kind, ns, name),
        join(this.options.runDir, `${podDir}-volumes`),
      );
      const logFile = join(this.options.runDir, `${podDir}-${p.restarts}.log`);
      const started = await spawnKeycloak({
        name: `keycloak pod ${p.key}`,
        version,
        env,
        args: [...command.slice(1), ...(container.args ?? [])],
        logFile,
        log: this.options.log,
        mounts,
      });
      p.ports = {
        [Number(raw.KC_HTTP_PORT ?? 8080)]: started.httpPort,
        [Number(raw.KC_HTTP_MANAGEMENT_PORT ?? 9000)]: started.managementPort,
      };
      p.managementPort = Number(raw.KC_HTTP_MANAGEMENT_PORT ?? 9000);
      p.daemon = started.daemon;
      p.startedAt = new Date();
      p.waiting = undefined;
      this.options.log(
        `kubelet: ${p.key}: started Keycloak ${version} as PID ${started.daemon.pid} (log ${logFile})`,
      );
    } catch (e) {
      const reason = e instanceof ContainerConfigError ? 'CreateContainerConfigError' : 'RunContainerError';
      p.waiting = { reason, message: (e as Error).message };
      p.notBefore = Date.now() + 5000;
      this.options.log(`kubelet: ${p.key}: ${reason}: ${(e as Error).message}`);
    }
  }

  private async readData(kind: 'Secret' | 'ConfigMap', namespace: string, name: string) {
    const raw = await this.readRaw(kind, namespace, name);
    return raw && Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v.toString('utf8')]));
  }

  /** A Secret's bytes (a keytab is binary) or a ConfigMap's data as bytes; undefined when absent. */
  private async readRaw(kind: 'Secret' | 'ConfigMap', namespace: string, name: string) {
    try {
      const data =
        kind === 'ConfigMap'
          ? Object.entries((await this.core.readNamespacedConfigMap({ name, namespace })).data ?? {}).map(
              ([k, v]) => [k, Buffer.from(v)] as const,
            )
          : Object.entries((await this.core.readNamespacedSecret({ name, namespace })).data ?? {}).map(
              ([k, v]) => [k, Buffer.from(v, 'base64')] as const,
            );
      return Object.fromEntries(data);
    } catch (e) {
      if ((e as { code?: number }).code === 404) return undefined;
      throw e;
    }
  }

  private async reportStatus(pod: V1Pod, p: Proc): Promise<void> {
    const container = pod.spec?.containers?.[0];
    const running = Boolean(p.daemon);
    const ready = running && p.ready;
    const summary = JSON.stringify([running, ready, p.restarts, p.waiting?.message]);
    if (summary === p.reported) return;
    const fresh = await this.core.readNamespacedPod({
      name: pod.metadata!.name!,
      namespace: pod.metadata!.namespace!,
    });
    const now = new Date();
    const condition = (type: string, ok: boolean) => {
      const old = fresh.status?.conditions?.find((c) => c.type === type);
      const status = ok ? 'True' : 'False';
      return { type, status, lastTransitionTime: old?.status === status ? old.lastTransitionTime : now };
    };
    const state = running
      ? { running: { startedAt: p.startedAt } }
      : {
          waiting: p.waiting ?? {
            reason: p.lastExit ? 'CrashLoopBackOff' : 'ContainerCreating',
            message: '',
          },
        };
    fresh.status = {
      ...fresh.status,
      phase: 'Running',
      hostIP: '127.0.0.1',
      startTime: fresh.status?.startTime ?? now,
      conditions: [
        condition('PodScheduled', true),
        condition('Initialized', true),
        condition('ContainersReady', ready),
        condition('Ready', ready),
      ],
      containerStatuses: [
        {
          name: container?.name ?? 'keycloak',
          image: container?.image ?? '',
          imageID: '',
          ready,
          started: running,
          restartCount: p.restarts,
          state,
          lastState: p.lastExit ? { terminated: { exitCode: 1, reason: 'Error', ...p.lastExit } } : {},
        },
      ],
    };
    await this.core.replaceNamespacedPodStatus({
      name: fresh.metadata!.name!,
      namespace: fresh.metadata!.namespace!,
      body: fresh,
    });
    p.reported = summary;
    this.options.log(`kubelet: ${p.key}: reported ready=${ready} running=${running} restarts=${p.restarts}`);
  }

  private async publishEndpoints(pods: V1Pod[]): Promise<void> {
    const services: V1Service[] = (await this.core.listServiceForAllNamespaces()).items;
    const endpoints: Record<string, string> = {};
    for (const svc of services) {
      const selector = svc.spec?.selector;
      if (!selector || Object.keys(selector).length === 0) continue;
      const ns = svc.metadata?.namespace;
      const pod = pods.find(
        (pd) =>
          pd.metadata?.namespace === ns &&
          this.procs.get(pd.metadata?.uid ?? '')?.daemon &&
          Object.entries(selector).every(([k, v]) => pd.metadata?.labels?.[k] === v),
      );
      if (!pod) continue;
      const p = this.procs.get(pod.metadata!.uid!)!;
      for (const port of svc.spec?.ports ?? []) {
        const target = port.targetPort ?? port.port;
        const containerPort =
          typeof target === 'number' || /^\d+$/.test(String(target))
            ? Number(target)
            : pod.spec?.containers?.flatMap((c) => c.ports ?? []).find((cp) => cp.name === target)
                ?.containerPort;
        const local = containerPort === undefined ? undefined : p.ports[containerPort];
        if (local) endpoints[`${svc.metadata!.name}.${ns}.svc:${port.port}`] = `http://127.0.0.1:${local}`;
      }
    }
    const sorted = Object.fromEntries(Object.entries(endpoints).sort(([a], [b]) => a.localeCompare(b)));
    if (JSON.stringify(sorted) === JSON.stringify(this.endpoints)) return;
    this.endpoints = sorted;
    const tmp = `${this.options.endpointMapFile}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ endpoints: sorted }, null, 2)}\n`);
    renameSync(tmp, this.options.endpointMapFile);
  }
}

function keyOf(pod: V1Pod): string {
  return `${pod.metadata?.namespace}/${pod.metadata?.name}`;
}

/** The Keycloak PIDs a kubelet recorded in `runDir`, by pod (so `testenv down` can stop them if it died). */
export function recordedKubeletPids(runDir: string): Record<string, number> {
  try {
    return JSON.parse(readFileSync(join(runDir, 'kubelet-pids.json'), 'utf8'));
  } catch {
    return {};
  }
}
