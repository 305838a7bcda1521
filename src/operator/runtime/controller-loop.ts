// One controller's loop: a work queue around its reconcile function, with the observability every controller
// shares: one JSON log line per outcome (kind, namespace, name, duration, result; at debug level when the
// reconcile changed nothing, so a steady state of thousands of resources is quiet), the reconcile counters and
// duration histogram, the queue depth, the count of resources by phase, and one series per resource that is not
// Ready (with its phase and reason). A requeue is spread with jitter (0.75 to 1.25 times the delay asked for), so
// resources created together do not resync together forever.

import type { Clock } from '../../core/clock.ts';
import { describeError } from '../../core/errors.ts';
import type { BackoffOptions } from './backoff.ts';
import type { Logger } from './logger.ts';
import type { OperatorMetrics } from './metrics.ts';
import { inReconcileOf } from './reconcile-scope.ts';
import { type NamespaceThrottle, WorkQueue } from './work-queue.ts';

/** A reconcile function: what it did (phase and anything else for the log), and when to look again. */
export type Reconciler = (
  key: string,
) => Promise<{ requeueAfterMs?: number; outcome?: { phase?: string } & Record<string, unknown> }>;

/** The settings and sinks of a loop. */
export type LoopDeps = {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: OperatorMetrics;
  readonly backoff: BackoffOptions;
  readonly concurrency: number;
  /** Uniform in [0, 1), for the requeue jitter (default: none, every requeue exactly as asked). */
  readonly random?: () => number;
  /** The Keycloak rate limiter's throttled namespaces, for fair queues (work-queue.ts). */
  readonly throttle?: NamespaceThrottle;
};

/** Whether an outcome lists anything written (a non-empty list, or a flag such as statusWritten). */
function wroteSomething(outcome: Record<string, unknown>): boolean {
  return Object.entries(outcome).some(([k, v]) =>
    Array.isArray(v) ? v.length > 0 : v === true && /written|wrote/i.test(k),
  );
}

/** The outcome's reason, when it reports one as a string. */
function reasonOf(outcome: Record<string, unknown>): string | undefined {
  return typeof outcome.reason === 'string' ? outcome.reason : undefined;
}

/** `ms` spread over its last fifth with `random`: resources made together drift apart, and a requeue is never later
 * than asked (a drift interval is a bound: a hand edit is reverted within one). */
export function jittered(ms: number, random: (() => number) | undefined): number {
  return random ? Math.round(ms * (0.8 + 0.2 * random())) : ms;
}

/** Starts the loop for `kind`; add keys to its queue. */
export function controllerLoop(kind: string, reconcile: Reconciler, deps: LoopDeps): WorkQueue {
  const { clock, logger, metrics } = deps;
  // Every series of the kind exists from the start, so rates and alerts see the first error as an increase.
  for (const result of ['success', 'error']) metrics.reconcileTotal.inc({ kind, result }, 0);
  metrics.reconcileErrors.inc({ kind }, 0);
  metrics.queueDepth.set({ kind }, 0);
  // The last phase of every key; the gauge moves by one when a key's phase changes (never a recount).
  const phases = new Map<string, string>();
  // The not-Ready series of every key that has one: one series per resource that is not Ready, never more.
  const notReady = new Map<string, Record<'kind' | 'namespace' | 'name' | 'phase' | 'reason', string>>();
  const setNotReady = (key: string, phase: string | undefined, reason: string | undefined) => {
    const previous = notReady.get(key);
    if (previous && previous.phase === phase && previous.reason === reason) return;
    if (previous) metrics.resourceNotReady.remove(previous);
    notReady.delete(key);
    if (!phase || phase === 'Ready') return;
    const [namespace = '', name = ''] = key.split('/');
    const labels = { kind, namespace, name, phase, reason: reason ?? '' };
    notReady.set(key, labels);
    metrics.resourceNotReady.set(labels, 1);
  };
  const setPhase = (key: string, phase: string | undefined, reason?: string) => {
    setNotReady(key, phase, reason);
    const previous = phases.get(key);
    if (previous === phase) return;
    if (previous) metrics.resourcesByPhase.dec({ kind, phase: previous });
    if (phase) {
      phases.set(key, phase);
      metrics.resourcesByPhase.inc({ kind, phase });
    } else phases.delete(key);
  };
  const queue: WorkQueue = new WorkQueue(
    async (key) => {
      const started = clock.now();
      const [namespace, name] = key.split('/');
      const end = metrics.reconcileDuration.startTimer({ kind });
      try {
        const result = await inReconcileOf(kind, () => reconcile(key));
        metrics.reconcileTotal.inc({ kind, result: 'success' });
        const phase = result.outcome?.phase;
        const quiet =
          phase !== undefined && phases.get(key) === phase && !wroteSomething(result.outcome ?? {});
        if (!result.outcome || phase === 'Deleted') setPhase(key, undefined);
        else if (phase) setPhase(key, phase, reasonOf(result.outcome));
        const ms = clock.now() - started;
        const log = quiet ? logger.debug?.bind(logger) : logger.info.bind(logger);
        log?.('reconciled', {
          kind,
          namespace,
          name,
          durationMs: ms,
          result: 'success',
          ...result.outcome,
        });
        const after = result.requeueAfterMs;
        return after === undefined ? result : { ...result, requeueAfterMs: jittered(after, deps.random) };
      } catch (error) {
        metrics.reconcileTotal.inc({ kind, result: 'error' });
        metrics.reconcileErrors.inc({ kind });
        throw error;
      } finally {
        end();
        metrics.queueDepth.set({ kind }, queue.depth());
      }
    },
    {
      concurrency: deps.concurrency,
      clock,
      backoff: deps.backoff,
      throttle: deps.throttle,
      onError: (key, error, retryInMs) => {
        const [namespace, name] = key.split('/');
        logger.error('reconciled', {
          kind,
          namespace,
          name,
          result: 'error',
          error: describeError(error),
          retryInMs,
        });
      },
    },
  );
  return queue;
}
