// `realmforge run`: builds the dependencies from flags and environment (in-cluster config inside a pod, the
// kubeconfig and REALMFORGE_ENDPOINT_MAP outside), serves /metrics, /healthz and /readyz, takes part in leader
// election when asked, and while leading runs the IdentityServer, IdentityRealm and IdentityClient controllers on
// work queues fed by watches. SIGTERM or SIGINT stops the watches, waits for running reconciles and releases the
// lease; losing the lease stops every write at once and ends the process (exit 1) so that it restarts clean.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { systemClock } from '../../core/clock.ts';
import type { Io } from '../../core/io.ts';
import { identityClientDefinition } from '../controllers/identity-client/controller.ts';
import { identityRealmDefinition } from '../controllers/identity-realm/controller.ts';
import { identityServerDefinition } from '../controllers/identity-server/controller.ts';
import { createAdminClient } from '../keycloak/admin-client.ts';
import { adminPathTemplate } from '../keycloak/admin-path.ts';
import { keycloakAdmins } from '../keycloak/admins.ts';
import { changeDetection, ownSubjects } from '../keycloak/change-detection.ts';
import type { KeycloakDeps } from '../keycloak/keycloak-deps.ts';
import { createRateLimiter } from '../keycloak/rate-limits.ts';
import { reconcileBackoff } from '../runtime/backoff.ts';
import type { HttpClient } from '../runtime/deps.ts';
import { endpointMapVariable, loadEndpointMap } from '../runtime/endpoint-map.ts';
import { leaderFence } from '../runtime/fence.ts';
import { guardedKube } from '../runtime/guarded-kube.ts';
import { startHealthServer } from '../runtime/health-server.ts';
import { keycloakAgent, keycloakHttp } from '../runtime/keycloak-http.ts';
import { loadKubeAccess } from '../runtime/kube-config.ts';
import { kubeResources } from '../runtime/kube-resources.ts';
import { restKubeClient } from '../runtime/kube-rest-client.ts';
import { kubeTransport } from '../runtime/kube-transport.ts';
import { LeaderElector } from '../runtime/leader-election.ts';
import { kubeLeaseStore } from '../runtime/lease-store.ts';
import { jsonLogger, type Logger } from '../runtime/logger.ts';
import { type Manager, startManager } from '../runtime/manager.ts';
import { createMetrics } from '../runtime/metrics.ts';
import { type RunFlags, runSettings } from '../runtime/operator-settings.ts';
import { reconcileKind } from '../runtime/reconcile-scope.ts';
import { cachedKube, createWatchCache } from '../runtime/watch-cache.ts';

/** Process-level hooks, injected so tests can stop the loop without signals. */
export type RunHooks = { readonly onStop: (stop: () => void) => void; readonly env: NodeJS.ProcessEnv };

function leveled(logger: Logger, level: string): Logger {
  const quiet = () => {};
  return {
    debug: level === 'debug' ? logger.debug : quiet,
    info: level === 'warn' || level === 'error' ? quiet : logger.info,
    warn: level === 'error' ? quiet : logger.warn,
    error: logger.error,
  };
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
    { kubeconfig: flags.kubeconfig, context: flags.context, env: hooks.env },
    (file) => readFileSync(file, 'utf8'),
    clock,
  );
  const transport = kubeTransport(access, { clock });
  const resources = kubeResources(transport, clock);
  const endpoints = loadEndpointMap(hooks.env[endpointMapVariable]);
  const metrics = createMetrics({ process: true });
  let elector: LeaderElector | undefined;
  const leading = () => (elector ? elector.isLeader() : true);
  // One fence for every write, to the API server and to Keycloak: checked before each attempt, and aborting
  // what is in flight the moment the lease is lost.
  const fence = leaderFence(leading);
  // Reads of watched types come from the watches (counted only when they reach the API server).
  const cache = createWatchCache();
  const kube = cachedKube(
    guardedKube(restKubeClient(transport, resources, clock, fence), {
      count: (verb) => metrics.kubeRequests.inc({ verb }),
      canWrite: leading,
    }),
    cache,
  );
  const limiter = createRateLimiter(
    { global: settings.globalLimit, namespace: settings.namespaceLimit },
    {
      waited: (scope, seconds) => metrics.rateLimitWait.observe({ scope }, seconds),
      queued: (scope, delta) => metrics.rateLimitQueued.inc({ scope }, delta),
    },
    clock,
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
  // One connection pool per CA in use (few: one per existing Keycloak with a private CA).
  const httpWithCa = new Map<string, HttpClient>();
  const httpFor = (ca?: string) => {
    if (!ca) return http;
    let client = httpWithCa.get(ca);
    if (!client) {
      client = keycloakHttp(keycloakAgent(ca));
      httpWithCa.set(ca, client);
    }
    return client;
  };
  // The operator's identities' user ids, across leader terms (change detection tells its own admin events by them).
  const subjects = ownSubjects();
  const admins = keycloakAdmins(base, (url, admin, ca) =>
    createAdminClient(url, admin, {
      http: httpFor(ca),
      limiter,
      clock,
      random: Math.random,
      count: (namespace, method, status, path) => {
        metrics.keycloakRequests.inc({ namespace, method, status });
        metrics.keycloakRequestsByPath.inc({ kind: reconcileKind(), method, path: adminPathTemplate(path) });
      },
      countToken: (namespace) => metrics.keycloakTokens.inc({ namespace }),
      subject: subjects.add,
      canWrite: () => !fence.signal.aborted && leading(),
      signal: fence.signal,
    }),
  );
  const deps: KeycloakDeps = {
    ...base,
    admins,
    driftIntervalMs: settings.driftIntervalMs,
    readyGraceMs: settings.readyGraceMs,
  };

  let manager: Manager | undefined;
  const startControllers = () => {
    // One memory of clean resyncs per term as leader: a new leader reads everything once.
    const changes = changeDetection({
      clock,
      driftIntervalMs: settings.driftIntervalMs,
      fullResyncPeriodMs: settings.fullResyncPeriodMs,
      own: subjects.has,
      wake: (consumer) => {
        const [kind = '', key = ''] = consumer.split(' ');
        manager?.enqueue(kind, key);
      },
    });
    const definitions = [
      identityServerDefinition(deps),
      identityRealmDefinition({ ...deps, changes }),
      identityClientDefinition({ ...deps, changes }),
    ];
    manager = startManager(definitions, {
      loop: {
        clock,
        logger,
        metrics,
        backoff: reconcileBackoff(settings.driftIntervalMs, Math.random),
        concurrency: settings.concurrency,
        random: Math.random,
        throttle: limiter,
      },
      watch: {
        transport,
        resources,
        clock,
        logger,
        backoff: { baseMs: 1000, maxMs: 30_000, random: Math.random },
      },
      driftIntervalMs: settings.driftIntervalMs,
      cache,
    });
    logger.info('controllers started', { driftIntervalMs: settings.driftIntervalMs });
  };
  const stopControllers = async () => {
    const running = manager;
    manager = undefined;
    await running?.stop();
  };

  const health = await startHealthServer({
    port: settings.metricsPort,
    host: hooks.env.REALMFORGE_METRICS_HOST,
    registry: metrics.registry,
    ready: () => !leading() || (manager?.synced() ?? false),
  });
  // The effective settings, so that a changed flag or rate-limit variable (a Helm upgrade) shows in the log.
  logger.info('operator started', {
    metricsPort: health.port,
    leaderElect: settings.leaderElect,
    identity: settings.identity,
    driftIntervalMs: settings.driftIntervalMs,
    fullResyncPeriodMs: settings.fullResyncPeriodMs,
    readyGraceMs: settings.readyGraceMs,
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
            fence.lost();
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
