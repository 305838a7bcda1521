// `realmforge run`: builds the Deps from the environment (in-cluster config inside a pod, the kubeconfig and
// REALMFORGE_ENDPOINT_MAP outside), starts the IdentityServer controller on a work queue fed by watches, resyncs
// every key periodically, and on SIGTERM/SIGINT stops watching and waits for running reconciles to finish.
// Not yet here (issue 4 continues): leader election, /metrics, /healthz, realm and client controllers.
import { randomBytes } from 'node:crypto';
import { KubeConfig } from '@kubernetes/client-node';
import { describeError, UsageError } from '../../core/errors.ts';
import type { Io } from '../../core/io.ts';
import { identityServerController } from '../controllers/identity-server.ts';
import { defaultBackoff } from '../runtime/backoff.ts';
import { systemClock } from '../runtime/clock.ts';
import type { Deps } from '../runtime/deps.ts';
import { endpointMapVariable, loadEndpointMap } from '../runtime/endpoint-map.ts';
import { nodeKubeClient } from '../runtime/kube-client-node.ts';
import { jsonLogger } from '../runtime/logger.ts';
import { ownerKey, ownKey, startWatch } from '../runtime/watch-source.ts';
import { WorkQueue } from '../runtime/work-queue.ts';

/** Process-level hooks, injected so tests can stop the loop without signals. */
export type RunHooks = { readonly onStop: (stop: () => void) => void; readonly env: NodeJS.ProcessEnv };

const resyncMs = 10 * 60_000;

function kubeConfig(env: NodeJS.ProcessEnv): KubeConfig {
  const config = new KubeConfig();
  try {
    if (env.KUBERNETES_SERVICE_HOST) config.loadFromCluster();
    else config.loadFromDefault();
  } catch (error) {
    throw new UsageError(
      `cannot load a kubeconfig (${(error as Error).message}): set KUBECONFIG, or run inside a cluster`,
      { cause: error },
    );
  }
  return config;
}

/** Runs the operator until stopped; resolves with the exit code. */
export async function runOperator(
  io: Io,
  hooks: RunHooks = { onStop: defaultOnStop, env: process.env },
): Promise<number> {
  const clock = systemClock;
  const logger = jsonLogger(io.stdout, clock);
  const config = kubeConfig(hooks.env);
  const deps: Deps = {
    kube: nodeKubeClient(config, clock),
    http: (url, init) => fetch(url, init),
    endpoints: loadEndpointMap(hooks.env[endpointMapVariable]),
    clock,
    random: Math.random,
    newPassword: () => randomBytes(24).toString('base64url'),
    logger,
  };
  const backoff = { ...defaultBackoff, random: deps.random };
  const reconcile = identityServerController(deps);
  const queue = new WorkQueue(
    async (key) => {
      const started = clock.now();
      const result = await reconcile(key);
      logger.info('reconciled', {
        kind: 'IdentityServer',
        key,
        ms: clock.now() - started,
        ...result.outcome,
      });
      return result;
    },
    {
      concurrency: Number(hooks.env.REALMFORGE_CONCURRENCY ?? 4),
      clock,
      backoff,
      onError: (key, error, retryInMs) =>
        logger.error('reconcile failed', {
          kind: 'IdentityServer',
          key,
          error: describeError(error),
          retryInMs,
        }),
    },
  );
  const enqueue = (key: string) => queue.add(key);
  const watchDeps = { clock, logger, backoff: { baseMs: 1000, maxMs: 30_000, random: deps.random } };
  const selector = 'app.kubernetes.io/managed-by=realmforge,app.kubernetes.io/name=keycloak';
  const sources = [
    startWatch(
      config,
      {
        path: '/apis/realmforge.dev/v1/identityservers',
        apiVersion: 'realmforge.dev/v1',
        kind: 'IdentityServer',
      },
      ownKey,
      enqueue,
      watchDeps,
    ),
    startWatch(
      config,
      {
        path: '/apis/apps/v1/deployments',
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        labelSelector: selector,
      },
      ownerKey('IdentityServer'),
      enqueue,
      watchDeps,
    ),
  ];
  const resync = setInterval(() => {
    for (const key of sources[0].keys()) queue.add(key);
  }, resyncMs);
  logger.info('operator started', { resyncMs });
  await new Promise<void>((resolve) => hooks.onStop(resolve));
  logger.info('stopping: waiting for running reconciles');
  clearInterval(resync);
  await Promise.all(sources.map((s) => s.stop()));
  await queue.shutdown();
  logger.info('stopped');
  return 0;
}

function defaultOnStop(stop: () => void): void {
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
