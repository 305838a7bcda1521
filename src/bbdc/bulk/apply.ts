import type { BulkPlan } from '../../../generated/types/cli/bulk/plan.ts';
import type { BulkStatus, BulkTargetStatus } from '../../../generated/types/cli/bulk/status.ts';
import { mapConcurrently } from '../../core/concurrently.ts';
import { RealmforgeError } from '../../core/errors.ts';
import type { BitbucketClient } from '../api/client.ts';
import type { Logger } from '../output/logger.ts';
import { applyOperation } from './operations.ts';
import { withCounts } from './status-store.ts';

/** The default number of repositories worked on at once. */
export const defaultConcurrency = 4;

/**
 * Applies the plan's operations that are not yet succeeded, `concurrency` repositories at a time, each repository's
 * operations in order; after one fails, that repository's remaining operations are skipped. `save` is called after
 * every repository, so an interrupted run leaves a status to resume from.
 */
export async function applyPlan(options: {
  plan: BulkPlan;
  status: BulkStatus;
  client: BitbucketClient;
  logger: Logger;
  concurrency: number;
  now: () => string;
  save: (status: BulkStatus) => void;
}): Promise<BulkStatus> {
  const { plan, client } = options;
  let status = options.status;
  const queue = status.targets
    .map((t, i) => ({ t, i }))
    .filter(({ t }) => t.operations.some((o) => o.state !== 'succeeded'));

  async function applyTarget(index: number): Promise<void> {
    const target = status.targets[index];
    const planned = plan.targets[index];
    const operations = target.operations.map((o) => ({ ...o }));
    let failedId: string | undefined;
    for (const [j, op] of operations.entries()) {
      if (op.state === 'succeeded') continue;
      delete op.error;
      delete op.result;
      if (failedId) {
        op.state = 'skipped';
        op.error = { kind: 'skipped', message: `not tried because ${failedId} failed` };
        continue;
      }
      try {
        op.result = await applyOperation(
          client,
          target.repository,
          plan.policy.operations[planned.operations[j].index],
          options.logger,
        );
        op.state = 'succeeded';
      } catch (error) {
        op.state = 'failed';
        op.error = {
          kind: error instanceof RealmforgeError ? error.kind : 'internal',
          message: (error as Error)?.message ?? String(error),
        };
        failedId = op.id;
      }
    }
    const next: BulkTargetStatus = {
      ...target,
      state: failedId ? 'failed' : 'succeeded',
      operations,
    };
    status = {
      ...status,
      targets: status.targets.map((t, i) => (i === index ? next : t)),
      updatedAt: options.now(),
    };
    status = withCounts(status);
    options.save(status);
  }

  await mapConcurrently(queue, Math.max(1, options.concurrency), ({ i }) => applyTarget(i));
  status = withCounts({ ...status, updatedAt: options.now() });
  options.save(status);
  return status;
}
