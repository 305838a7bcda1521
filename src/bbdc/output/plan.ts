import type { Plan } from '../../../generated/types/cli/plan.ts';
import type { Ui } from './ui.ts';

/** Builds a plan, writing a one-line summary from the parts when none is given. */
export function makePlan(parts: Omit<Plan, 'kind' | 'summary'> & { summary?: string }): Plan {
  const blocked = parts.blockingReasons.length > 0;
  const summary =
    parts.summary ??
    (blocked
      ? `would not ${parts.action.description}: ${parts.blockingReasons[0]}`
      : parts.predictedAction === 'no-op'
        ? `nothing to do: ${parts.target.type} ${parts.target.id} is already as requested`
        : `would ${parts.action.description}`);
  return {
    kind: 'plan',
    intent: parts.intent,
    target: parts.target,
    action: parts.action,
    predictedAction: parts.predictedAction,
    reasons: parts.reasons,
    blockingReasons: parts.blockingReasons,
    summary,
  };
}

/** Prints a plan for a person: summary first, then target, action, reasons and blocking reasons. */
export function printPlan(plan: Plan, ui: Ui): void {
  ui.line(`${ui.bold('Dry run')}: ${plan.summary}`);
  ui.line(`  intent:    ${plan.intent}`);
  ui.line(
    `  target:    ${plan.target.type} ${plan.target.id}${plan.target.host ? ` on ${plan.target.host}` : ''}`,
  );
  const request = plan.action.method ? ` (${plan.action.method} ${plan.action.path})` : '';
  ui.line(`  action:    ${plan.predictedAction}: ${plan.action.description}${request}`);
  for (const r of plan.reasons) ui.line(`  reason:    ${r}`);
  for (const r of plan.blockingReasons) ui.line(`  blocking:  ${r}`);
  ui.line('No changes were made.');
}
