import type { BulkStatus } from '../../../../generated/types/cli/bulk/status.ts';
import type { BulkStatusOutput } from '../../../../generated/types/cli/output/bulk-status.ts';
import { loadOperation } from '../../bulk/status-store.ts';
import { defineCommand } from '../../command.ts';
import type { Ui } from '../../output/ui.ts';

/** Prints a status for people: totals, then each repository that did not succeed. */
export function printStatus(s: BulkStatus, ui: Ui): void {
  const c = s.counts;
  ui.line(`${s.operationId}: ${s.state} (attempt ${s.attempts}, updated ${s.updatedAt})`);
  ui.line(
    `  ${c.targets} repositories, ${c.operations} operations: ${c.succeeded} succeeded, ${c.failed} failed, ${c.skipped} skipped, ${c.pending} pending`,
  );
  const rows = s.targets
    .filter((t) => t.state !== 'succeeded')
    .flatMap((t) =>
      t.operations.filter((o) => o.state !== 'succeeded').map((o) => [o.id, o.state, o.error?.message ?? '']),
    );
  if (rows.length) ui.table(['operation', 'state', 'reason'], rows);
  if (s.state === 'failed') ui.notice(`Fix the cause, then run: bbdc bulk apply --resume ${s.operationId}`);
}

/** `bbdc bulk status <operation-id>`: what a bulk apply did, from its status document. */
export const command = defineCommand<{ operationId: string }, BulkStatusOutput>({
  name: 'bulk status',
  summary: 'Show the progress of a bulk apply',
  args: [
    {
      name: 'operation-id',
      required: true,
      description: 'The id bulk apply printed, e.g. op-20261121t221500z-3f2a9c1b',
    },
  ],
  flags: {},
  outputSchema: 'bulk-status',
  effect: 'safe',
  examples: ['bbdc bulk status op-20261121t221500z-3f2a9c1b --json'],
  parse: ({ args }) => ({ operationId: args[0] }),
  run: async (o, deps) => loadOperation(deps.configPath, o.operationId).status,
  human: printStatus,
});
