import type { RepoSettingsDefaultReviewersCreateOutput } from '../../../../../generated/types/cli/output/repo-settings-default-reviewers-create.ts';
import { UsageError } from '../../../../core/errors.ts';
import type { RestUser } from '../../../api/identity.ts';
import { identify } from '../../../api/identity.ts';
import { scopedNeeds } from '../../../api/permission-check.ts';
import { parseRefMatcher, type RestRefMatcher, refMatcherSyntax } from '../../../api/ref-matcher.ts';
import {
  conditionsPath,
  type RestCondition,
  resolveUsers,
  toDefaultReviewers,
  userList,
} from '../../../api/reviewers.ts';
import { defineCommand } from '../../../command.ts';
import { makePlan } from '../../../output/plan.ts';
import { printConditions } from './default-reviewers-list.ts';

type Options = { source: RestRefMatcher; target: RestRefMatcher; reviewers: string[]; approvals: number };

/** The POST body, for the dry-run and the run alike: the full user objects the server resolved. */
const conditionBody = (
  o: { source: RestRefMatcher; target: RestRefMatcher; approvals: number },
  reviewers: RestUser[],
) => ({ sourceMatcher: o.source, targetMatcher: o.target, reviewers, requiredApprovals: o.approvals });

/** `bbdc repo settings default-reviewers create --reviewers a,b [--source M] [--target M] [--approvals N]`. */
export const command = defineCommand<Options, RepoSettingsDefaultReviewersCreateOutput>({
  name: 'repo settings default-reviewers create',
  summary: 'Add a default-reviewer condition to a repository',
  description: `New pull requests from --source into --target get the reviewers; --approvals of them must approve. Matchers: ${refMatcherSyntax}. Needs REPO_ADMIN.`,
  args: [],
  flags: {
    reviewers: {
      type: 'string',
      isMultiple: true,
      value: 'USERS',
      description: 'Reviewers, comma-separated or repeated (required)',
    },
    source: { type: 'string', value: 'MATCHER', description: 'Source branches (default any)' },
    target: { type: 'string', value: 'MATCHER', description: 'Target branches (default any)' },
    approvals: {
      type: 'string',
      value: 'N',
      description: 'How many of the reviewers must approve (default 0)',
    },
  },
  outputSchema: 'repo-settings-default-reviewers-create',
  effect: 'mutating',
  needs: scopedNeeds('REPO_ADMIN', 'changing default reviewers'),
  examples: [
    'bbdc repo settings default-reviewers create --reviewers alice,bob --target main --approvals 1 -R PROJ/api',
  ],
  parse: ({ flags }) => {
    const reviewers = userList(flags.reviewers, '--reviewers');
    const text = String(flags.approvals ?? '0');
    if (!/^\d+$/.test(text)) throw new UsageError(`--approvals "${text}" must be a whole number`);
    const approvals = Number(text);
    if (approvals > reviewers.length)
      throw new UsageError(`--approvals ${approvals} is more than the ${reviewers.length} reviewer(s) given`);
    return {
      source: parseRefMatcher(String(flags.source ?? 'any'), '--source'),
      target: parseRefMatcher(String(flags.target ?? 'any'), '--target'),
      reviewers,
      approvals,
    };
  },
  async plan(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { username } = await identify(client, repo.host.url);
    const reviewers = await resolveUsers(client, o.reviewers);
    const existing = (await client.get<RestCondition[]>(conditionsPath(repo.project, repo.slug))).map(
      toDefaultReviewers,
    );
    const shown = toDefaultReviewers({
      id: 0,
      sourceRefMatcher: o.source,
      targetRefMatcher: o.target,
      reviewers: [],
      requiredApprovals: o.approvals,
    });
    const overlapping = existing.filter((c) => c.source === shown.source && c.target === shown.target);
    return makePlan({
      intent: `bbdc repo settings default-reviewers create --reviewers ${o.reviewers.join(',')}`,
      target: { type: 'default-reviewers', id: `${repo.project}/${repo.slug}`, host: repo.host.url },
      action: {
        type: 'http',
        description: `add ${o.reviewers.join(', ')} as default reviewers from ${shown.source} to ${shown.target} in ${repo.project}/${repo.slug}`,
        method: 'POST',
        path: conditionsPath(repo.project, repo.slug, 'new'),
        body: conditionBody(o, reviewers),
      },
      predictedAction: 'create',
      reasons: [
        `authenticated as ${username}`,
        `users exist: ${o.reviewers.join(', ')}`,
        ...overlapping.map(
          (c) => `condition ${c.id} already covers ${c.source} -> ${c.target} (${c.reviewers.join(', ')})`,
        ),
      ],
      blockingReasons: [],
    });
  },
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const reviewers = await resolveUsers(client, o.reviewers);
    const res = await client.request<RestCondition>('POST', conditionsPath(repo.project, repo.slug, 'new'), {
      body: conditionBody(o, reviewers),
    });
    return { repository: `${repo.project}/${repo.slug}`, condition: toDefaultReviewers(res.data) };
  },
  human(d, ui) {
    ui.line(`Added default-reviewer condition ${d.condition.id} to ${d.repository}.`);
    printConditions([d.condition], ui);
  },
});
