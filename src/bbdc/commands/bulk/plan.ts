import { writeFileSync } from 'node:fs';
import type { BulkPlanOutput } from '../../../../generated/types/cli/output/bulk-plan.ts';
import { UsageError } from '../../../core/errors.ts';
import { buildPlan } from '../../bulk/plan.ts';
import { loadPolicy } from '../../bulk/policy.ts';
import { resolveTargets } from '../../bulk/targets.ts';
import { defineCommand } from '../../command.ts';

type Options = { file: string; output?: string };

/** `bbdc bulk plan -f policy.yaml`: validates the policy, resolves its repositories and writes the plan to review. */
export const command = defineCommand<Options, BulkPlanOutput>({
  name: 'bulk plan',
  summary: 'Validate a policy and plan its operations on every repository it selects',
  description:
    'The policy (YAML or JSON, schema https://realmforge.dev/schemas/cli/bulk/policy.schema.json) names repositories by project, slug glob or ' +
    'PROJECT/slug and the settings they should have. Only reads the server. Without --output the plan is printed, ' +
    'so `bbdc bulk plan -f policy.yaml > plan.json` works too.',
  args: [],
  flags: {
    file: {
      type: 'string',
      shortFlag: 'f',
      value: 'POLICY',
      description: 'Policy file, YAML or JSON (required)',
    },
    output: { type: 'string', shortFlag: 'o', value: 'PLAN', description: 'Write the plan to this file' },
  },
  outputSchema: 'bulk-plan',
  effect: 'safe',
  examples: ['bbdc bulk plan -f policy.yaml -o plan.json', 'bbdc bulk apply --from-plan plan.json'],
  parse: ({ flags }) => {
    if (!flags.file) throw new UsageError('-f/--file POLICY is required: the policy to plan (YAML or JSON)');
    return { file: String(flags.file), ...(flags.output ? { output: String(flags.output) } : {}) };
  },
  async run(o, deps) {
    const policy = loadPolicy(o.file);
    const host = await deps.host();
    const targets = await resolveTargets(await deps.client(host), policy.selector);
    const plan = buildPlan(policy, targets, host.url);
    if (o.output) writeFileSync(o.output, `${JSON.stringify(plan, null, 2)}\n`);
    return { plan, ...(o.output ? { file: o.output } : {}) };
  },
  human(d, ui) {
    if (!d.file) {
      ui.line(JSON.stringify(d.plan, null, 2));
      return;
    }
    const ops = d.plan.targets.reduce((n, t) => n + t.operations.length, 0);
    ui.line(`Plan ${d.plan.planHash}`);
    ui.line(`  ${d.plan.targets.length} repositories on ${d.plan.host}, ${ops} operations:`);
    for (const t of d.plan.targets[0]?.operations ?? []) ui.line(`  - ${t.type}: ${t.description}`);
    ui.line(`Wrote ${d.file}. Review it, then run: bbdc bulk apply --from-plan ${d.file}`);
  },
});
