// `realmforge run`: builds the dependencies from flags and environment (in-cluster config inside a pod, the
// kubeconfig and REALMFORGE_ENDPOINT_MAP outside), serves /metrics, /healthz and /readyz, takes part in leader
// election when asked, and while leading runs the IdentityServer, IdentityRealm and IdentityClient controllers on
// work queues fed by watches. SIGTERM or SIGINT stops the watches, waits for running reconciles and releases the
// lease; losing the lease stops every write at once and ends the process (exit 1) so that it restarts clean.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, fetch as undiciFetch } from 'undici';
import type { Io } from '../../core/io.ts';
import { identityClientController } from '../controllers/identity-client.ts';
import { identityRealmController } from '../controllers/identity-realm.ts';
import { identityServerController } from '../controllers/identity-server.ts';
import { realmKeyOf, serverKeyOf } from '../controllers/owner-server.ts';
import { createAdminClient } from '../keycloak/admin-client.ts';
import { keycloakAdmins } from '../keycloak/admins.ts';
import type { KeycloakDeps } from '../keycloak/keycloak-deps.ts';
import { createRateLimiter } from '../keycloak/rate-limits.ts';
import { defaultBackoff } from '../runtime/backoff.ts';
import { systemClock } from '../runtime/clock.ts';
import { controllerLoop } from '../runtime/controller-loop.ts';
import type { HttpClient } from '../runtime/deps.ts';
import { endpointMapVariable, loadEndpointMap } from '../runtime/endpoint-map.ts';
import { guardedKube } from '../runtime/guarded-kube.ts';
import { startHealthServer } from '../runtime/health-server.ts';
import { loadKubeAccess } from '../runtime/kube-config.ts';
import { kubeResources } from '../runtime/kube-resources.ts';
import { restKubeClient } from '../runtime/kube-rest-client.ts';
import { kubeTransport } from '../runtime/kube-transport.ts';
import { LeaderElector } from '../runtime/leader-election.ts';
import { kubeLeaseStore } from '../runtime/lease-store.ts';
import { jsonLogger, type Logger } from '../runtime/logger.ts';
import { createMetrics } from '../runtime/metrics.ts';
import { type RunFlags, runSettings } from '../runtime/operator-settings.ts';
import { ownerKey, ownKey, startWatch, type WatchSource } from '../runtime/watch-source.ts';
import type { WorkQueue } from '../runtime/work-queue.ts';

/** Process-level hooks, injected so tests can stop the loop without signals. */
export type RunHooks = { readonly onStop: (stop: () => void) => void; readonly env: NodeJS.ProcessEnv };

function leveled(logger: Logger, level: string): Logger {
  const quiet = () => {};
  return {
    info: level === 'warn' || level === 'error' ? quiet : logger.info,
    warn: level === 'error' ? quiet : logger.warn,
    error: logger.error,
  };
}

/** Keycloak over undici: keep-alive connections with connect and header timeouts. */
function keycloakHttp(): HttpClient {
  const dispatcher = new Agent({ connectTimeout: 5000, headersTimeout: 15_000, bodyTimeout: 15_000 });
  return (url, init) => undiciFetch(url, { ...init, dispatcher });
}

/** Runs the operator until stopped; resolves with the exit code. */
export async function runOperator(
  io: Io,
  flags: RunFlags = {},
  hooks: RunHooks = { onStop: defaultOnStop, env: process.env },
): Promise<number> {
  const settings = runSettings(flags, hooks.env);
  const clock = systemClock;
  const logger = leveled(jsonLogger(io.stdout, clock), settings.logLevel);
  const access = loadKubeAccess(
    { kubeconfig: flags.kubeconfig, env: hooks.env },
    (file) => readFileSync(file, 'utf8'),
    clock,
  );
  const transport = kubeTransport(access);
  const resources = kubeResources(transport, clock);
  const endpoints = loadEndpointMap(hooks.env[endpointMapVariable]);
  const metrics = createMetrics();
  let elector: LeaderElector | undefined;
  const leading = () => (elector ? elector.isLeader() : true);
  const kube = guardedKube(restKubeClient(transport, resources, clock), {
    count: (verb) => metrics.kubeRequests.inc({ verb }),
    canWrite: leading,
  });
  const limiter = createRateLimiter(
    { global: settings.globalLimit, namespace: settings.namespaceLimit },
    {
      waited: (scope, seconds) => metrics.rateLimitWait.observe({ scope }, seconds),
      queued: (scope, delta) => metrics.rateLimitQueued.inc({ scope }, delta),
    },
  );
  const http = keycloakHttp();
  const base = {
    kube,
    http,
    endpoints,
    clock,
    random: Math.random,
    newPassword: () => randomBytes(24).toString('base64url'),
    logger,
  };
  const admins = keycloakAdmins(base, (url, admin) =>
    createAdminClient(url, admin, {
      http,
      limiter,
      clock,
      random: Math.random,
      count: (namespace, method, status) => metrics.keycloakRequests.inc({ namespace, method, status }),
      countToken: (namespace) => metrics.keycloakTokens.inc({ namespace }),
      canWrite: leading,
    }),
  );
  const deps: KeycloakDeps = { ...base, admins, driftIntervalMs: settings.driftIntervalMs };

  let controllers: { queues: WorkQueue[]; sources: WatchSource[]; resync: NodeJS.Timeout } | undefined;
  const startControllers = () => {
    const loopDeps = {
      clock,
      logger,
      metrics,
      backoff: { ...defaultBackoff, random: Math.random },
      concurrency: settings.concurrency,
    };
    const servers = controllerLoop('IdentityServer', identityServerController(deps), loopDeps);
    const realms = controllerLoop('IdentityRealm', identityRealmController(deps), loopDeps);
    const clients = controllerLoop('IdentityClient', identityClientController(deps), loopDeps);
    const watchDeps = {
      transport,
      resources,
      clock,
      logger,
      backoff: { baseMs: 1000, maxMs: 30_000, random: Math.random },
    };
    const custom = (kind: string) => ({ apiVersion: 'realmforge.dev/v1', kind });
    const sources: WatchSource[] = [];
    const realmSource = startWatch(
      custom('IdentityRealm'),
      ownKey,
      (key, statusOnly) => {
        // The status a realm's reconcile wrote needs no second reconcile; it does wake the realm's clients.
        if (!statusOnly) realms.add(key);
        // A realm's change (grants, readiness) wakes the clients that use it.
        for (const c of clientSource.objects())
          if (realmKeyOf(c as never) === key) clients.add(ownKey(c) as string);
      },
      watchDeps,
    );
    const clientSource = startWatch(
      custom('IdentityClient'),
      ownKey,
      (key, statusOnly) => {
        if (!statusOnly) clients.add(key); // not for the status its own reconcile wrote
      },
      watchDeps,
    );
    const serverSource = startWatch(
      custom('IdentityServer'),
      ownKey,
      (key) => {
        servers.add(key);
        for (const r of realmSource.objects())
          if (serverKeyOf(r as never) === key) realms.add(ownKey(r) as string);
      },
      watchDeps,
    );
    const deployments = startWatch(
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        labelSelector: 'app.kubernetes.io/managed-by=realmforge,app.kubernetes.io/name=keycloak',
      },
      ownerKey('IdentityServer'),
      (key) => servers.add(key),
      watchDeps,
    );
    sources.push(serverSource, realmSource, clientSource, deployments);
    // Every drift interval each server is compared with its children again (a Ready server is not polled).
    const resync = setInterval(() => {
      for (const key of serverSource.keys()) servers.add(key);
    }, settings.driftIntervalMs);
    resync.unref();
    controllers = { queues: [servers, realms, clients], sources, resync };
    logger.info('controllers started', { driftIntervalMs: settings.driftIntervalMs });
  };
  const stopControllers = async () => {
    if (!controllers) return;
    const { queues, sources, resync } = controllers;
    controllers = undefined;
    clearInterval(resync);
    await Promise.all(sources.map((s) => s.stop()));
    await Promise.all(queues.map((q) => q.shutdown()));
  };

  const health = await startHealthServer({
    port: settings.metricsPort,
    host: hooks.env.REALMFORGE_METRICS_HOST,
    registry: metrics.registry,
    ready: () => !leading() || (controllers?.sources.every((s) => s.synced()) ?? false),
  });
  // The effective settings, so that a changed flag or rate-limit variable (a Helm upgrade) shows in the log.
  logger.info('operator started', {
    metricsPort: health.port,
    leaderElect: settings.leaderElect,
    identity: settings.identity,
    driftIntervalMs: settings.driftIntervalMs,
    logLevel: settings.logLevel,
    concurrency: settings.concurrency,
    rateLimits: { global: settings.globalLimit, namespace: settings.namespaceLimit },
  });

  let exitCode = 0;
  const stopped = new Promise<void>((resolve) => {
    hooks.onStop(resolve);
    if (settings.leaderElect) {
      elector = new LeaderElector(
        kubeLeaseStore(transport, resources, settings.leaseNamespace, settings.leaseName),
        settings.identity,
        clock,
        {
          onStartedLeading: () => {
            metrics.leader.set(1);
            logger.info('became the leader', { lease: `${settings.leaseNamespace}/${settings.leaseName}` });
            startControllers();
          },
          onStoppedLeading: (reason) => {
            metrics.leader.set(0);
            logger.error('lost the leader lease; stopping', { reason });
            exitCode = 1;
            resolve();
          },
          onError: (error) => logger.warn('leader election', { error: (error as Error).message }),
        },
      );
      metrics.leader.set(0);
      elector.start();
    } else {
      metrics.leader.set(1);
      startControllers();
    }
  });
  await stopped;
  logger.info('stopping: waiting for running reconciles');
  await stopControllers();
  await elector?.stop();
  await limiter.stop();
  await health.close();
  await transport.close();
  logger.info('stopped', { exitCode });
  return exitCode;
}

function defaultOnStop(stop: () => void): void {
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
