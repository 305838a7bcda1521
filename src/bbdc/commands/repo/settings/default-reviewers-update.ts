import type { RepoSettingsDefaultReviewersCreateOutput } from '../../../../../generated/types/cli/output/repo-settings-default-reviewers-create.ts';
import { UsageError } from '../../../../core/errors.ts';
import { scopedNeeds } from '../../../api/permission-check.ts';
import { parseRefMatcher, type RestRefMatcher } from '../../../api/ref-matcher.ts';
import {
  conditionsPath,
  type RestCondition,
  resolveUsers,
  toDefaultReviewers,
  userList,
} from '../../../api/reviewers.ts';
import { type CommandDeps, defineCommand } from '../../../command.ts';
import { apply, type Change, planOf } from '../../../output/change.ts';
import { printConditions } from './default-reviewers-list.ts';

type Options = {
  id: number;
  source?: RestRefMatcher;
  target?: RestRefMatcher;
  reviewers?: string[];
  approvals?: number;
};

async function prepare(o: Options, deps: CommandDeps) {
  const repo = await deps.repo();
  const client = await deps.client(repo.host);
  if (o.reviewers) await resolveUsers(client, o.reviewers);
  // The conditions come as one array, not a page.
  const list = await client.get<RestCondition[]>(conditionsPath(repo.project, repo.slug));
  const current = list.find((c) => c.id === o.id);
  const reviewers = o.reviewers ?? current?.reviewers.map((u) => u.name) ?? [];
  const approvals = o.approvals ?? current?.requiredApprovals ?? 0;
  // PUT replaces the condition: what is not given is sent as it is now.
  const body = current && {
    sourceMatcher: o.source ?? current.sourceRefMatcher,
    targetMatcher: o.target ?? current.targetRefMatcher,
    reviewers: reviewers.map((name) => ({ name })),
    requiredApprovals: approvals,
  };
  const blocking = !current
    ? [
        `no default-reviewer condition ${o.id} in ${repo.project}/${repo.slug}; see bbdc repo settings default-reviewers list`,
      ]
    : approvals > reviewers.length
      ? [`--approvals ${approvals} is more than the ${reviewers.length} reviewer(s)`]
      : [];
  const change: Change = {
    client,
    intent: `bbdc repo settings default-reviewers update ${o.id}`,
    host: repo.host.url,
    target: { type: 'default-reviewers', id: `${repo.project}/${repo.slug}/${o.id}` },
    request: { method: 'PUT', path: conditionsPath(repo.project, repo.slug, o.id), body },
    description: `update default-reviewer condition ${o.id}`,
    predicted: 'update',
    reasons: current ? [`it names ${current.reviewers.map((u) => u.name).join(', ')}`] : [],
    blocking,
  };
  return { repository: `${repo.project}/${repo.slug}`, change };
}

/** `bbdc repo settings default-reviewers update <id>` (bb: reviewer condition update). */
export const command = defineCommand<Options, RepoSettingsDefaultReviewersCreateOutput>({
  name: 'repo settings default-reviewers update',
  summary: 'Change a default-reviewer condition: its branches, reviewers or required approvals',
  description: 'Only the flags given change. Needs REPO_ADMIN.',
  args: [
    {
      name: 'id',
      required: true,
      description: 'Condition id (see bbdc repo settings default-reviewers list)',
    },
  ],
  flags: {
    reviewers: {
      type: 'string',
      isMultiple: true,
      value: 'USERS',
      description: 'Reviewers (replace the old ones)',
    },
    source: { type: 'string', value: 'MATCHER', description: 'Source branches' },
    target: { type: 'string', value: 'MATCHER', description: 'Target branches' },
    approvals: { type: 'string', value: 'N', description: 'How many of the reviewers must approve' },
  },
  outputSchema: 'repo-settings-default-reviewers-create',
  effect: 'mutating',
  needs: scopedNeeds('REPO_ADMIN', 'changing default reviewers'),
  examples: ['bbdc repo settings default-reviewers update 1 --reviewers alice,bob --approvals 2'],
  parse: ({ args, flags }) => {
    if (!/^\d+$/.test(String(args[0] ?? '')))
      throw new UsageError(`condition id "${args[0]}" must be a number`);
    const hasReviewers = ((flags.reviewers as string[] | undefined) ?? []).length > 0;
    if (flags.approvals !== undefined && !/^\d+$/.test(String(flags.approvals)))
      throw new UsageError(`--approvals "${flags.approvals}" must be a whole number`);
    const o: Options = {
      id: Number(args[0]),
      ...(hasReviewers && { reviewers: userList(flags.reviewers, '--reviewers') }),
      ...(flags.source !== undefined && { source: parseRefMatcher(String(flags.source), '--source') }),
      ...(flags.target !== undefined && { target: parseRefMatcher(String(flags.target), '--target') }),
      ...(flags.approvals !== undefined && { approvals: Number(flags.approvals) }),
    };
    if (Object.keys(o).length === 1)
      throw new UsageError('nothing to change: pass --reviewers, --source, --target or --approvals');
    return o;
  },
  plan: async (o, deps) => planOf((await prepare(o, deps)).change),
  async run(o, deps) {
    const p = await prepare(o, deps);
    const res = await apply<RestCondition>(p.change);
    return { repository: p.repository, condition: toDefaultReviewers(res!.data) };
  },
  human(d, ui) {
    printConditions([d.condition], ui);
  },
});
