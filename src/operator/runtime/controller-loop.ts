// One controller's loop: a work queue around its reconcile function, with the observability every controller
// shares: one JSON log line per outcome (kind, namespace, name, duration, result), the reconcile counters and
// duration histogram, the queue depth, and the count of resources by phase.
import { describeError } from '../../core/errors.ts';
import type { BackoffOptions } from './backoff.ts';
import type { Clock } from './clock.ts';
import type { Logger } from './logger.ts';
import type { OperatorMetrics } from './metrics.ts';
import { WorkQueue } from './work-queue.ts';

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
};

/** Starts the loop for `kind`; add keys to its queue. */
export function controllerLoop(kind: string, reconcile: Reconciler, deps: LoopDeps): WorkQueue {
  const { clock, logger, metrics } = deps;
  // The last phase of every key; the gauge moves by one when a key's phase changes (never a recount).
  const phases = new Map<string, string>();
  const setPhase = (key: string, phase: string | undefined) => {
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
        const result = await reconcile(key);
        metrics.reconcileTotal.inc({ kind, result: 'success' });
        const phase = result.outcome?.phase;
        if (!result.outcome || phase === 'Deleted') setPhase(key, undefined);
        else if (phase) setPhase(key, phase);
        const ms = clock.now() - started;
        logger.info('reconciled', {
          kind,
          namespace,
          name,
          durationMs: ms,
          result: 'success',
          ...result.outcome,
        });
        return result;
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
