import { readFileSync } from 'node:fs';
import type { BulkPlan } from '../../../../generated/types/cli/bulk/plan.ts';
import type { BulkStatus } from '../../../../generated/types/cli/bulk/status.ts';
import type { BulkApplyOutput } from '../../../../generated/types/cli/output/bulk-apply.ts';
import { type ErrorKind, RealmforgeError, UsageError } from '../../../core/errors.ts';
import { utcIso } from '../../api/timestamps.ts';
import { applyPlan, defaultConcurrency } from '../../bulk/apply.ts';
import { verifyPlan } from '../../bulk/plan.ts';
import { initialStatus, loadOperation, newOperationId, saveOperation } from '../../bulk/status-store.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { normalizeHostUrl } from '../../config/hosts.ts';
import { makePlan } from '../../output/plan.ts';
import { positiveInt } from '../repo/list.ts';
import { printStatus } from './status.ts';

type Options = { fromPlan?: string; resume?: string; concurrency: number };

function readPlan(file: string): BulkPlan {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`--from-plan ${file} cannot be read as JSON (${code ?? (error as Error).message})`);
  }
  // `bulk plan --json` wraps the plan as {data: {plan}}; accept that too.
  const inner = (data as { data?: { plan?: unknown } })?.data?.plan;
  return verifyPlan(inner ?? data, file);
}

/** The plan and the status to continue from: a fresh operation, or the saved one for --resume. */
function load(o: Options, deps: CommandDeps): { plan: BulkPlan; status?: BulkStatus } {
  if (o.resume) {
    const op = loadOperation(deps.configPath, o.resume);
    return { plan: op.plan(), status: op.status };
  }
  return { plan: readPlan(o.fromPlan!) };
}

async function clientFor(plan: BulkPlan, deps: CommandDeps) {
  if (deps.globals.host && normalizeHostUrl(deps.globals.host, '--host') !== plan.host)
    throw new UsageError(
      `the plan was made for ${plan.host}, not --host ${deps.globals.host}; plan again for that server`,
    );
  return deps.client(await deps.resolveHost(plan.host));
}

/** `bbdc bulk apply --from-plan plan.json | --resume <op>`: applies a reviewed plan, resumable by operation id. */
export const command = defineCommand<Options, BulkApplyOutput>({
  name: 'bulk apply',
  summary: 'Apply a bulk plan, or resume one that did not finish',
  description:
    'Checks the plan hash, then works on --concurrency repositories at a time, honouring Retry-After. After an ' +
    "operation fails, that repository's later operations are skipped. Progress is kept under the config directory " +
    'as bulk/<operation-id>/status.json; --resume retries only what failed or was skipped.',
  args: [],
  flags: {
    fromPlan: { type: 'string', value: 'PLAN', description: 'The plan file bulk plan wrote' },
    resume: {
      type: 'string',
      value: 'OPERATION',
      description: 'Retry the failed and skipped operations of a run',
    },
    concurrency: {
      type: 'string',
      value: 'N',
      description: `Repositories at once (default ${defaultConcurrency})`,
    },
  },
  outputSchema: 'bulk-apply',
  effect: 'mutating',
  examples: [
    'bbdc bulk apply --from-plan plan.json',
    'bbdc bulk apply --resume op-20261121t221500z-3f2a9c1b',
  ],
  parse: ({ flags }) => {
    if (Boolean(flags.fromPlan) === Boolean(flags.resume))
      throw new UsageError('pass exactly one of --from-plan PLAN and --resume OPERATION');
    return {
      ...(flags.fromPlan ? { fromPlan: String(flags.fromPlan) } : {}),
      ...(flags.resume ? { resume: String(flags.resume) } : {}),
      concurrency: positiveInt(flags.concurrency, '--concurrency', defaultConcurrency),
    };
  },
  async plan(o, deps) {
    const { plan, status } = load(o, deps);
    await clientFor(plan, deps);
    const open = status
      ? status.counts.operations - status.counts.succeeded
      : plan.targets.flatMap((t) => t.operations).length;
    return makePlan({
      intent: o.resume ? `bbdc bulk apply --resume ${o.resume}` : `bbdc bulk apply --from-plan ${o.fromPlan}`,
      target: { type: 'bulk-plan', id: plan.planHash, host: plan.host },
      action: {
        type: 'http',
        description: `apply ${open} operations on ${plan.targets.length} repositories`,
      },
      predictedAction: open ? 'update' : 'no-op',
      reasons: [
        `the plan hash matches its content`,
        ...(plan.targets[0]?.operations.map((op) => `${op.type}: ${op.description}`) ?? []),
      ],
      blockingReasons: [],
    });
  },
  async run(o, deps) {
    const loaded = load(o, deps);
    const { plan } = loaded;
    const client = await clientFor(plan, deps);
    const now = () => utcIso(deps.clock.now());
    let status: BulkStatus;
    if (loaded.status) {
      status = { ...loaded.status, attempts: loaded.status.attempts + 1, updatedAt: now() };
      saveOperation(deps.configPath, status);
    } else {
      status = initialStatus(plan, newOperationId(deps.configPath, deps.clock.now(), plan.planHash), now());
      saveOperation(deps.configPath, status, plan);
    }
    deps.ui.notice(`Applying ${plan.planHash} as ${status.operationId}`);
    const done = await applyPlan({
      plan,
      status,
      client,
      logger: deps.logger,
      concurrency: o.concurrency,
      now,
      save: (s) => saveOperation(deps.configPath, s),
    });
    if (done.state !== 'succeeded') {
      const failed = done.targets.flatMap((t) => t.operations.filter((op) => op.state === 'failed'));
      const kind = (failed[0]?.error?.kind ?? 'internal') as ErrorKind;
      throw new RealmforgeError(
        kind,
        `bulk apply ${done.operationId}: ${failed.length} of ${done.counts.targets} repositories failed (${done.counts.skipped} operations skipped after them); the others were applied`,
        {
          details: [
            ...failed.slice(0, 10).map((op) => `${op.id} ${op.type}: ${op.error?.message}`),
            ...(failed.length > 10
              ? [`... and ${failed.length - 10} more: bbdc bulk status ${done.operationId}`]
              : []),
            `fix the cause, then run: bbdc bulk apply --resume ${done.operationId}`,
          ],
        },
      );
    }
    return done;
  },
  human: printStatus,
});
