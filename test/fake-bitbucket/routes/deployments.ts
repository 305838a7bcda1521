// Deployments of commits, and deleting a repository's build status. Recording a deployment needs REPO_WRITE
// (CD tools report with write tokens); reading one REPO_READ; deleting a build status REPO_ADMIN.
import { ciState, type FakeDeployment, listOf } from '../ci-state.ts';
import { opsState } from '../ops-state.ts';
import { bitbucketError, type RouteContext, type RouteResult } from '../route-types.ts';
import type { FakeRepo } from '../state.ts';
import { type DeclaredRoute, repoRoute } from './declared.ts';

const states = ['PENDING', 'IN_PROGRESS', 'CANCELLED', 'FAILED', 'ROLLED_BACK', 'SUCCESSFUL', 'UNKNOWN'];
const at = (repo: FakeRepo, ctx: RouteContext) => `${repo.projectKey}/${repo.slug}@${ctx.params.commitId}`;

function find(ctx: RouteContext, repo: FakeRepo): { list: FakeDeployment[]; i: number } | RouteResult {
  const q = ctx.query;
  for (const p of ['key', 'environmentKey', 'deploymentSequenceNumber'])
    if (!q.get(p))
      return bitbucketError(
        400,
        `${p} is required.`,
        'com.atlassian.bitbucket.validation.ArgumentValidationException',
      );
  const list = listOf(ciState(ctx.state).deployments, at(repo, ctx));
  const i = list.findIndex(
    (d) =>
      d.key === q.get('key') &&
      d.environment.key === q.get('environmentKey') &&
      String(d.deploymentSequenceNumber) === q.get('deploymentSequenceNumber'),
  );
  return { list, i };
}

const noDeployment = () =>
  bitbucketError(
    404,
    'No deployment matches the key, environment and sequence number.',
    'com.atlassian.bitbucket.deployment.NoSuchDeploymentException',
  );

/** Routes keyed by operationId, each with the permission Bitbucket requires. */
export const deploymentRoutes: Record<string, DeclaredRoute> = {
  get_1: repoRoute('REPO_READ', (ctx, repo) => {
    const f = find(ctx, repo);
    if (!('list' in f)) return f;
    return f.i < 0 ? noDeployment() : { status: 200, body: f.list[f.i] };
  }),
  createOrUpdateDeployment: repoRoute('REPO_WRITE', (ctx, repo) => {
    const b = (ctx.body ?? {}) as Record<string, unknown> & {
      environment?: { key?: string; displayName?: string };
    };
    const errors: string[] = [];
    for (const f of ['key', 'deploymentSequenceNumber', 'description', 'displayName', 'url'])
      if (b[f] === undefined) errors.push(`${f} is required.`);
    if (!states.includes(String(b.state))) errors.push(`state must be one of ${states.join(', ')}.`);
    if (!b.environment?.key || !b.environment.displayName)
      errors.push('environment.key and environment.displayName are required.');
    if (errors.length)
      return {
        status: 400,
        body: {
          errors: errors.map((message) => ({
            context: null,
            message,
            exceptionName: 'com.atlassian.bitbucket.validation.ArgumentValidationException',
          })),
        },
      };
    const list = listOf(ciState(ctx.state).deployments, at(repo, ctx));
    const d = {
      ...b,
      fromCommit: { id: ctx.params.commitId, displayId: ctx.params.commitId.slice(0, 11) },
      lastUpdated: 1_700_000_000_000,
    } as unknown as FakeDeployment;
    const i = list.findIndex(
      (x) =>
        x.key === d.key &&
        x.environment.key === d.environment.key &&
        x.deploymentSequenceNumber === d.deploymentSequenceNumber,
    );
    if (i >= 0) list[i] = d;
    else list.push(d);
    return { status: i >= 0 ? 200 : 201, body: d };
  }),
  delete_1: repoRoute('REPO_WRITE', (ctx, repo) => {
    const f = find(ctx, repo);
    if (!('list' in f)) return f;
    if (f.i < 0) return noDeployment();
    f.list.splice(f.i, 1);
    return { status: 204 };
  }),
  delete: repoRoute('REPO_ADMIN', (ctx, repo) => {
    const ops = opsState(ctx.state);
    const key = ctx.query.get('key');
    const i = ops.buildStatuses.findIndex(
      (s) =>
        s.repo === `${repo.projectKey}/${repo.slug}` && s.commit === ctx.params.commitId && s.key === key,
    );
    if (i < 0)
      return bitbucketError(
        404,
        `No build status with key ${key} on ${ctx.params.commitId}.`,
        'com.atlassian.bitbucket.build.NoSuchBuildStatusException',
      );
    ops.buildStatuses.splice(i, 1);
    return { status: 204 };
  }),
};
