import type { BulkPlan } from '../../../generated/types/cli/bulk/plan.ts';
import type { BulkPolicy } from '../../../generated/types/cli/bulk/policy.ts';
import validatePlan from '../../../generated/validators/bulk-plan.ts';
import { ValidationError } from '../../core/errors.ts';
import { formatSchemaErrors } from '../../core/schema-errors.ts';
import { sha256Of } from './canonical.ts';
import { describeOperation, operationRequest } from './operations.ts';

/** The bulk API identifier. */
export const apiVersion = 'bbdc.io/v1alpha1';

/** The plan for a normalized policy on sorted targets; deterministic, its hash covering every other field. */
export function buildPlan(policy: BulkPolicy, targets: string[], host: string): BulkPlan {
  const body = {
    apiVersion,
    kind: 'BulkPlan' as const,
    host,
    policy,
    targets: [...targets].sort().map((repository) => ({
      repository,
      operations: policy.operations.map((op, index) => ({
        id: `${repository}#${index}`,
        index,
        type: op.type,
        description: describeOperation(op),
        request: operationRequest(repository, op),
      })),
    })),
  };
  return { apiVersion, kind: 'BulkPlan', planHash: sha256Of(body), host, policy, targets: body.targets };
}

/** Checks a plan document read from a file: its schema, then that planHash matches its content. */
export function verifyPlan(data: unknown, file: string): BulkPlan {
  // A --json envelope from `bulk plan --json` is accepted as well as the bare plan.
  const doc =
    (data as { data?: unknown; version?: unknown })?.version === 'v2'
      ? (data as { data: unknown }).data
      : data;
  if (!validatePlan(doc)) {
    throw new ValidationError(
      `${file} is not a bulk plan (schema https://realmforge.dev/schemas/cli/bulk/plan.schema.json)`,
      {
        details: formatSchemaErrors(validatePlan.errors).slice(0, 10),
      },
    );
  }
  const { planHash, ...rest } = doc as BulkPlan;
  const actual = sha256Of(rest);
  if (actual !== planHash) {
    throw new ValidationError(
      `${file} was changed after it was planned: its planHash does not match its content`,
      {
        details: [
          `planHash in the file: ${planHash}`,
          `hash of the content:  ${actual}`,
          'nothing was applied; run `bbdc bulk plan` again and review the new plan',
        ],
      },
    );
  }
  const expected = buildPlan(
    rest.policy,
    rest.targets.map((t) => t.repository),
    rest.host,
  );
  if (expected.planHash !== planHash) {
    throw new ValidationError(`${file}: its operations are not the ones its policy gives`, {
      details: ['nothing was applied; run `bbdc bulk plan` again with this version of bbdc'],
    });
  }
  return doc as BulkPlan;
}
