import type { Plan } from '../../../generated/types/cli/plan.ts';
import { makePlan } from './plan.ts';

/** What an HTTP mutation would do, as the command predicted it from read-only calls. */
export type HttpPlanParts = {
  intent: string;
  host: string;
  target: { type: string; id: string };
  request: { method: string; path: string; body?: unknown };
  description: string;
  predicted: Plan['predictedAction'];
  reasons: string[];
  blocking?: string[];
};

/** Builds the plan of one HTTP mutation; any blocking reason turns the prediction into a conflict. */
export function httpPlan(p: HttpPlanParts): Plan {
  const blocking = p.blocking ?? [];
  return makePlan({
    intent: p.intent,
    target: { ...p.target, host: p.host },
    action: {
      type: 'http',
      description: p.description,
      method: p.request.method,
      path: p.request.path,
      ...(p.request.body !== undefined && { body: p.request.body }),
    },
    predictedAction: blocking.length ? 'conflict' : p.predicted,
    reasons: p.reasons,
    blockingReasons: blocking,
  });
}
