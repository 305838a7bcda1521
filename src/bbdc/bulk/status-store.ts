import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BulkPlan } from '../../../generated/types/cli/bulk/plan.ts';
import type { BulkStatus } from '../../../generated/types/cli/bulk/status.ts';
import { UsageError } from '../../core/errors.ts';
import { utcIso } from '../api/timestamps.ts';
import { writePrivateFile } from '../config/private-file.ts';
import { apiVersion, verifyPlan } from './plan.ts';

/** The directory of one bulk operation: `<config dir>/bulk/<operationId>`, holding plan.json and status.json. */
export function operationDir(configPath: string, operationId: string): string {
  return join(configPath, '..', 'bulk', operationId);
}

/** A new operation id from the time and the plan hash, e.g. `op-20261121t221500z-3f2a9c1b`, unique in the directory. */
export function newOperationId(configPath: string, nowMs: number, planHash: string): string {
  const stamp = utcIso(nowMs)
    .replace(/[-:]|\.\d+/g, '')
    .toLowerCase();
  const base = `op-${stamp}-${planHash.slice('sha256:'.length, 'sha256:'.length + 8)}`;
  let id = base;
  for (let n = 2; existsSync(operationDir(configPath, id)); n++) id = `${base}-${n}`;
  return id;
}

/** The first status of a plan: every operation pending. */
export function initialStatus(plan: BulkPlan, operationId: string, nowIso: string): BulkStatus {
  const status: BulkStatus = {
    apiVersion,
    kind: 'BulkStatus',
    operationId,
    planHash: plan.planHash,
    host: plan.host,
    state: 'running',
    startedAt: nowIso,
    updatedAt: nowIso,
    attempts: 1,
    counts: { targets: 0, operations: 0, succeeded: 0, failed: 0, skipped: 0, pending: 0 },
    targets: plan.targets.map((t) => ({
      repository: t.repository,
      state: 'pending',
      operations: t.operations.map((o) => ({ id: o.id, type: o.type, state: 'pending' })),
    })),
  };
  return withCounts(status);
}

/** The status with its counts and overall state recomputed from the targets. */
export function withCounts(status: BulkStatus): BulkStatus {
  const ops = status.targets.flatMap((t) => t.operations);
  const count = (s: string) => ops.filter((o) => o.state === s).length;
  const counts = {
    targets: status.targets.length,
    operations: ops.length,
    succeeded: count('succeeded'),
    failed: count('failed'),
    skipped: count('skipped'),
    pending: count('pending'),
  };
  const state = counts.pending > 0 ? 'running' : counts.failed + counts.skipped > 0 ? 'failed' : 'succeeded';
  return { ...status, counts, state };
}

/** Writes plan.json (once) and status.json atomically, readable only by the user. */
export function saveOperation(configPath: string, status: BulkStatus, plan?: BulkPlan): void {
  const dir = operationDir(configPath, status.operationId);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (plan) writePrivateFile(join(dir, 'plan.json'), `${JSON.stringify(plan, null, 2)}\n`);
  writePrivateFile(join(dir, 'status.json'), `${JSON.stringify(status, null, 2)}\n`);
}

function readJson(file: string, operationId: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new UsageError(
        `no bulk operation ${operationId}: ${file} does not exist; the id is printed by bulk apply`,
      );
    throw new UsageError(`${file} cannot be read (${code ?? (error as Error).message})`);
  }
}

/** Loads an operation's status and, for resuming, its verified plan. */
export function loadOperation(
  configPath: string,
  operationId: string,
): { status: BulkStatus; plan: () => BulkPlan } {
  if (!/^op-[0-9a-z-]+$/.test(operationId))
    throw new UsageError(
      `"${operationId}" is not a bulk operation id (they look like op-20261121t221500z-3f2a9c1b)`,
    );
  const dir = operationDir(configPath, operationId);
  const status = readJson(join(dir, 'status.json'), operationId) as BulkStatus;
  return {
    status,
    plan: () => verifyPlan(readJson(join(dir, 'plan.json'), operationId), join(dir, 'plan.json')),
  };
}
