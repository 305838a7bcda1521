// Routes for pull requests: list, dashboard, create, update, delete, merge, decline, reopen, participants,
// review status, mergeability and auto-merge. Build statuses are served by builds.ts (seeded PR builds too).
import { type FakePullRequest, pullRequestsOf, tick } from '../pull-request-state.ts';
import {
  bitbucketError,
  page,
  type RouteContext,
  type RouteResult,
  type RouteTable,
} from '../route-types.ts';
import { findPullRequest, notOpen, pullRequestJson, staleVersion, userJson } from './pull-request-json.ts';

type Ref = { id?: string };
const branchOf = (ref: Ref | undefined) => ref?.id?.replace(/^refs\/heads\//, '');
const strategies = ['no-ff', 'ff', 'ff-only', 'rebase-no-ff', 'rebase-ff-only', 'squash', 'squash-ff-only'];
const invalid = (message: string) =>
  bitbucketError(400, message, 'com.atlassian.bitbucket.validation.ArgumentValidationException');

function withPr(handle: (ctx: RouteContext, pr: FakePullRequest) => RouteResult) {
  return (ctx: RouteContext) => {
    const found = findPullRequest(ctx);
    return 'pr' in found ? handle(ctx, found.pr) : found;
  };
}

function bump(ctx: RouteContext, pr: FakePullRequest) {
  pr.version++;
  pr.updated = tick(pullRequestsOf(ctx.state));
}

function reviewersFrom(ctx: RouteContext, list: unknown): string[] | RouteResult {
  const names = ((list ?? []) as { user?: { name?: string } }[]).map((r) => r.user?.name ?? '');
  const unknown = names.filter((n) => !ctx.state.users.some((u) => u.name === n));
  if (unknown.length) return invalid(`reviewers: ${unknown.join(', ')} is not a user.`);
  return names;
}

function vetoesOf(pr: FakePullRequest) {
  return [
    ...pr.vetoes,
    ...(pr.draft
      ? [{ summaryMessage: 'Draft', detailedMessage: 'A draft pull request cannot be merged.' }]
      : []),
  ];
}

function merge(
  ctx: RouteContext,
  pr: FakePullRequest,
  strategyId: string | undefined,
): RouteResult | undefined {
  if (strategyId && !strategies.includes(strategyId))
    return invalid(`strategyId: ${strategyId} is not a strategy.`);
  const vetoes = vetoesOf(pr);
  if (pr.conflicted || vetoes.length)
    return {
      status: 409,
      body: {
        errors: [
          {
            context: null,
            message: pr.conflicted
              ? 'The pull request has conflicts.'
              : 'Merging the pull request has been vetoed.',
            exceptionName: 'com.atlassian.bitbucket.pull.PullRequestMergeVetoedException',
            conflicted: pr.conflicted,
            vetoes,
          },
        ],
      },
    };
  pr.state = 'MERGED';
  bump(ctx, pr);
  pr.closed = pr.updated;
  pr.autoMerge = undefined;
  return undefined;
}

/** The pull request operations bbdc's pr commands use. */
export const pullRequestRoutes: RouteTable = {
  getPage: {
    auth: 'optional',
    handle: (ctx) => {
      const d = pullRequestsOf(ctx.state);
      const state = ctx.query.get('state')?.toUpperCase() ?? 'OPEN';
      const at = branchOf({ id: ctx.query.get('at') ?? undefined });
      const outgoing = ctx.query.get('direction')?.toUpperCase() === 'OUTGOING';
      const prs = d.pullRequests
        .filter(
          (p) =>
            p.projectKey.toUpperCase() === ctx.params.projectKey.toUpperCase() &&
            p.slug === ctx.params.repositorySlug.toLowerCase(),
        )
        .filter((p) => state === 'ALL' || p.state === state)
        .filter((p) => !at || (outgoing ? p.from : p.to) === at)
        .sort((a, b) => b.updated - a.updated);
      return page(
        prs.map((p) => pullRequestJson(p, ctx)),
        ctx.query,
      );
    },
  },
  getPullRequests_1: {
    auth: 'required',
    handle: (ctx) => {
      const state = ctx.query.get('state')?.toUpperCase();
      const role = ctx.query.get('role')?.toUpperCase();
      const prs = pullRequestsOf(ctx.state)
        .pullRequests.filter((p) => !state || p.state === state)
        .filter((p) => p.participants.some((x) => x.name === ctx.user!.name && (!role || x.role === role)))
        .sort((a, b) => b.updated - a.updated);
      return page(
        prs.map((p) => pullRequestJson(p, ctx)),
        ctx.query,
      );
    },
  },
  create: {
    auth: 'required',
    handle: (ctx) => {
      const d = pullRequestsOf(ctx.state);
      const body = (ctx.body ?? {}) as Record<string, unknown>;
      const key = `${ctx.params.projectKey.toUpperCase()}/${ctx.params.repositorySlug.toLowerCase()}`;
      const branches = d.branches[key] ?? {};
      const from = branchOf(body.fromRef as Ref);
      const to = branchOf(body.toRef as Ref);
      if (!body.title) return invalid('title: A title is required.');
      for (const b of [from, to])
        if (!b || !branches[b]) return invalid(`Repository ${key} does not contain the branch ${b}.`);
      if (from === to) return invalid('The source and target branches must differ.');
      const existing = d.pullRequests.find(
        (p) => `${p.projectKey}/${p.slug}` === key && p.from === from && p.to === to && p.state === 'OPEN',
      );
      if (existing)
        return bitbucketError(
          409,
          `Only one pull request may be open for a given source and target branch (#${existing.id}).`,
          'com.atlassian.bitbucket.pull.DuplicatePullRequestException',
        );
      const reviewers = reviewersFrom(ctx, body.reviewers);
      if (!Array.isArray(reviewers)) return reviewers;
      if (reviewers.includes(ctx.user!.name))
        return invalid('reviewers: The author of a pull request cannot be a reviewer.');
      const [projectKey, slug] = key.split('/');
      const now = tick(d);
      const pr: FakePullRequest = {
        id:
          Math.max(0, ...d.pullRequests.filter((p) => `${p.projectKey}/${p.slug}` === key).map((p) => p.id)) +
          1,
        projectKey,
        slug,
        title: String(body.title),
        description: String(body.description ?? ''),
        state: 'OPEN',
        draft: body.draft === true,
        version: 0,
        from: from!,
        to: to!,
        fromCommit: branches[from!],
        toCommit: branches[to!],
        participants: [
          { name: ctx.user!.name, role: 'AUTHOR', status: 'UNAPPROVED' },
          ...reviewers.map((name) => ({ name, role: 'REVIEWER' as const, status: 'UNAPPROVED' as const })),
        ],
        created: now,
        updated: now,
        vetoes: [],
        conflicted: false,
        commits: [],
        files: [],
        comments: [],
      };
      d.pullRequests.push(pr);
      return { status: 201, body: pullRequestJson(pr, ctx) };
    },
  },
  get_3: { auth: 'optional', handle: withPr((ctx, pr) => ({ status: 200, body: pullRequestJson(pr, ctx) })) },
  update: {
    auth: 'required',
    handle: withPr((ctx, pr) => {
      const body = (ctx.body ?? {}) as Record<string, unknown>;
      const stale = staleVersion(pr, body.version ?? -1);
      if (stale) return stale;
      const branches = pullRequestsOf(ctx.state).branches[`${pr.projectKey}/${pr.slug}`] ?? {};
      const to = body.toRef ? branchOf(body.toRef as Ref) : pr.to;
      if (!to || !branches[to]) return invalid(`toRef: the branch ${to} does not exist.`);
      // Like live servers, an update without `reviewers` removes them all.
      const reviewers = reviewersFrom(ctx, body.reviewers);
      if (!Array.isArray(reviewers)) return reviewers;
      if (body.title !== undefined) pr.title = String(body.title);
      // A PUT replaces the pull request: a description left out is erased, as bbdc must never do by accident.
      pr.description = String(body.description ?? '');
      if (body.draft !== undefined) pr.draft = body.draft === true;
      pr.to = to;
      pr.toCommit = branches[to];
      const kept = pr.participants.filter((p) => p.role !== 'REVIEWER');
      pr.participants = [
        ...kept,
        ...reviewers.map(
          (name) =>
            pr.participants.find((p) => p.name === name && p.role === 'REVIEWER') ?? {
              name,
              role: 'REVIEWER' as const,
              status: 'UNAPPROVED' as const,
            },
        ),
      ];
      bump(ctx, pr);
      return { status: 200, body: pullRequestJson(pr, ctx) };
    }),
  },
  delete_3: {
    auth: 'required',
    handle: withPr((ctx, pr) => {
      const stale = staleVersion(pr, ((ctx.body ?? {}) as { version?: number }).version ?? -1);
      if (stale) return stale;
      const d = pullRequestsOf(ctx.state);
      d.pullRequests = d.pullRequests.filter((p) => p !== pr);
      return { status: 204 };
    }),
  },
  canMerge: {
    auth: 'optional',
    handle: withPr((_ctx, pr) => {
      if (pr.mergeStatus === 404) return bitbucketError(404, 'Mergeability is not available.');
      if (pr.mergeStatus === 409 || pr.state !== 'OPEN')
        return bitbucketError(409, `Pull request ${pr.id} cannot be checked for merge now.`);
      const vetoes = vetoesOf(pr);
      return {
        status: 200,
        body: {
          canMerge: !pr.conflicted && vetoes.length === 0,
          conflicted: pr.conflicted,
          outcome: pr.conflicted ? 'CONFLICTED' : 'CLEAN',
          vetoes,
        },
      };
    }),
  },
  merge: {
    auth: 'required',
    handle: withPr((ctx, pr) => {
      const refused = notOpen(pr) ?? staleVersion(pr, ctx.query.get('version') ?? -1);
      if (refused) return refused;
      const body = (ctx.body ?? {}) as { strategyId?: string; autoMerge?: boolean };
      // With autoMerge (the 9.4 document's RestPullRequestMergeRequest), a vetoed merge is recorded as requested.
      if (body.autoMerge === true && (pr.conflicted || vetoesOf(pr).length > 0)) {
        if (body.strategyId && !strategies.includes(body.strategyId))
          return invalid(`strategyId: ${body.strategyId} is not a strategy.`);
        pr.autoMerge = { strategyId: body.strategyId, created: tick(pullRequestsOf(ctx.state)) };
        return { status: 200, body: pullRequestJson(pr, ctx) };
      }
      const failed = merge(ctx, pr, body.strategyId);
      return failed ?? { status: 200, body: pullRequestJson(pr, ctx) };
    }),
  },
  decline: {
    auth: 'required',
    handle: withPr((ctx, pr) => {
      const refused = notOpen(pr) ?? staleVersion(pr, ctx.query.get('version') ?? -1);
      if (refused) return refused;
      pr.state = 'DECLINED';
      bump(ctx, pr);
      pr.closed = pr.updated;
      return { status: 200, body: pullRequestJson(pr, ctx) };
    }),
  },
  reopen: {
    auth: 'required',
    handle: withPr((ctx, pr) => {
      if (pr.state !== 'DECLINED')
        return bitbucketError(
          409,
          `Pull request ${pr.id} is ${pr.state.toLowerCase()}; only a declined one can be reopened.`,
        );
      const stale = staleVersion(pr, ctx.query.get('version') ?? -1);
      if (stale) return stale;
      pr.state = 'OPEN';
      pr.closed = undefined;
      bump(ctx, pr);
      return { status: 200, body: pullRequestJson(pr, ctx) };
    }),
  },
  assignParticipantRole: {
    auth: 'required',
    handle: withPr((ctx, pr) => {
      const body = (ctx.body ?? {}) as { user?: { name?: string }; role?: string };
      const name = body.user?.name;
      if (!name || !ctx.state.users.some((u) => u.name === name))
        return invalid(`user: ${name ?? '(none)'} is not a user.`);
      if (body.role !== 'REVIEWER' && body.role !== 'PARTICIPANT')
        return invalid('role: must be REVIEWER or PARTICIPANT.');
      const existing = pr.participants.find((p) => p.name === name);
      if (existing?.role === 'AUTHOR') return invalid('The author of a pull request cannot be a reviewer.');
      const participant = existing ?? { name, role: body.role, status: 'UNAPPROVED' as const };
      participant.role = body.role;
      if (!existing) pr.participants.push(participant);
      return {
        status: 200,
        body: {
          user: userJson(name, ctx),
          role: participant.role,
          approved: participant.status === 'APPROVED',
          status: participant.status,
        },
      };
    }),
  },
  unassignParticipantRole: {
    auth: 'required',
    handle: withPr((ctx, pr) => {
      const slug = ctx.params.userSlug.toLowerCase();
      const user = ctx.state.users.find((u) => u.slug === slug);
      const existing = pr.participants.find((p) => p.name === user?.name && p.role === 'REVIEWER');
      if (!existing)
        return bitbucketError(404, `${ctx.params.userSlug} is not a reviewer of pull request ${pr.id}.`);
      pr.participants = pr.participants.filter((p) => p !== existing);
      return { status: 204 };
    }),
  },
  updateStatus: {
    auth: 'required',
    handle: withPr((ctx, pr) => {
      // Live servers only let you change your own status here; they never add someone else as a reviewer.
      if (ctx.params.userSlug.toLowerCase() !== ctx.user!.slug)
        return bitbucketError(
          401,
          'You can only change your own review status.',
          'com.atlassian.bitbucket.AuthorisationException',
        );
      const status = ((ctx.body ?? {}) as { status?: string }).status;
      if (status !== 'APPROVED' && status !== 'UNAPPROVED' && status !== 'NEEDS_WORK')
        return invalid('status: must be APPROVED, UNAPPROVED or NEEDS_WORK.');
      const existing = pr.participants.find((p) => p.name === ctx.user!.name);
      if (existing?.role === 'AUTHOR') return invalid('The author of a pull request cannot review it.');
      const participant = existing ?? { name: ctx.user!.name, role: 'PARTICIPANT' as const, status };
      participant.status = status;
      if (!existing) pr.participants.push(participant);
      return {
        status: 200,
        body: {
          user: userJson(participant.name, ctx),
          role: participant.role,
          approved: status === 'APPROVED',
          status,
          lastReviewedCommit: pr.fromCommit,
        },
      };
    }),
  },
  getAutoMergeRequest: {
    auth: 'required',
    handle: withPr((_ctx, pr) => {
      if (!pr.autoMerge) return bitbucketError(404, `Pull request ${pr.id} has no auto-merge request.`);
      return {
        status: 200,
        body: {
          autoSubject: true,
          createdDate: pr.autoMerge.created,
          fromHash: pr.fromCommit,
          toRefId: `refs/heads/${pr.to}`,
          ...(pr.autoMerge.strategyId && { strategyId: pr.autoMerge.strategyId }),
        },
      };
    }),
  },
  tryAutoMerge: {
    auth: 'required',
    handle: withPr((ctx, pr) => {
      const refused = notOpen(pr);
      if (refused) return refused;
      // The document's tryAutoMerge takes no body: it retries the merge auto-merge was requested for.
      if (ctx.body !== undefined) return invalid('tryAutoMerge takes no request body.');
      if (!pr.autoMerge) return { status: 200, body: { autoMergeProcessingStatus: 'CANCELLED' } };
      const vetoed = pr.conflicted || vetoesOf(pr).length > 0;
      if (!vetoed) merge(ctx, pr, pr.autoMerge.strategyId);
      return {
        status: 200,
        body: {
          autoMergeProcessingStatus: vetoed ? 'VETOED' : 'MERGED',
          pullRequest: pullRequestJson(pr, ctx),
        },
      };
    }),
  },
  cancelAutoMerge: {
    auth: 'required',
    handle: withPr((_ctx, pr) => {
      pr.autoMerge = undefined;
      return { status: 204 };
    }),
  },
};
