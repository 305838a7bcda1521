// Code Insights routes: reports and annotations per commit. Reading needs REPO_READ; so does publishing (as on the
// server, where CI tools report with read-only tokens), but never anonymously.
import { type CiState, ciState, type FakeAnnotation, listOf } from '../ci-state.ts';
import { gitOf, resolveRef } from '../core-state.ts';
import { bitbucketError, page, type RouteContext, type RouteResult } from '../route-types.ts';
import type { FakeRepo } from '../state.ts';
import { type DeclaredRoute, repoRoute } from './declared.ts';

const validation = 'com.atlassian.bitbucket.validation.ArgumentValidationException';
const key = (repo: FakeRepo, ctx: RouteContext) => `${repo.projectKey}/${repo.slug}@${ctx.params.commitId}`;
const reportJson = (r: { key: string; body: Record<string, unknown>; created: number }) => ({
  ...r.body,
  key: r.key,
  createdDate: r.created,
});

function signedIn(handle: (ctx: RouteContext, repo: FakeRepo, ci: CiState) => RouteResult) {
  return repoRoute('REPO_READ', (ctx, repo) => {
    if (!ctx.user) return bitbucketError(401, 'Authentication required.');
    if (resolveRef(gitOf(ctx.state, repo), ctx.params.commitId) !== ctx.params.commitId)
      return bitbucketError(
        404,
        `Commit '${ctx.params.commitId}' does not exist in this repository.`,
        'com.atlassian.bitbucket.commit.NoSuchCommitException',
      );
    return handle(ctx, repo, ciState(ctx.state));
  });
}

function withReport(handle: (ctx: RouteContext, repo: FakeRepo, ci: CiState, at: string) => RouteResult) {
  return signedIn((ctx, repo, ci) => {
    const at = key(repo, ctx);
    if (!listOf(ci.reports, at).some((r) => r.key === ctx.params.key))
      return bitbucketError(
        404,
        `No report with key ${ctx.params.key} exists on commit ${ctx.params.commitId}.`,
        'com.atlassian.bitbucket.codeinsights.NoSuchReportException',
      );
    return handle(ctx, repo, ci, at);
  });
}

function annotationErrors(a: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (typeof a.message !== 'string' || !a.message) out.push('message: A message is required.');
  if (!['LOW', 'MEDIUM', 'HIGH'].includes(String(a.severity)))
    out.push('severity: must be LOW, MEDIUM or HIGH.');
  if (a.type !== undefined && !['VULNERABILITY', 'CODE_SMELL', 'BUG'].includes(String(a.type)))
    out.push('type: must be VULNERABILITY, CODE_SMELL or BUG.');
  return out;
}

const invalid = (errors: string[]): RouteResult => ({
  status: 400,
  body: { errors: errors.map((message) => ({ context: null, message, exceptionName: validation })) },
});

/** Routes keyed by operationId, each with the permission Bitbucket requires. */
export const insightsRoutes: Record<string, DeclaredRoute> = {
  getReports: signedIn((ctx, repo, ci) =>
    page(listOf(ci.reports, key(repo, ctx)).map(reportJson), ctx.query),
  ),
  getACodeInsightsReport: withReport((ctx, _repo, ci, at) => ({
    status: 200,
    body: reportJson(listOf(ci.reports, at).find((r) => r.key === ctx.params.key)!),
  })),
  setACodeInsightsReport: signedIn((ctx, repo, ci) => {
    const body = (ctx.body ?? {}) as Record<string, unknown>;
    const errors: string[] = [];
    if (typeof body.title !== 'string' || !body.title) errors.push('title: A title is required.');
    if (!Array.isArray(body.data)) errors.push('data: must be an array.');
    else if (body.data.length > 6) errors.push('data: at most 6 items.');
    if (body.result !== undefined && !['PASS', 'FAIL'].includes(String(body.result)))
      errors.push('result: must be PASS or FAIL.');
    if (errors.length) return invalid(errors);
    const list = listOf(ci.reports, key(repo, ctx));
    const report = { key: ctx.params.key, body, created: 1_700_000_000_000 + list.length };
    const i = list.findIndex((r) => r.key === ctx.params.key);
    if (i >= 0) list[i] = report;
    else list.push(report);
    return { status: 200, body: reportJson(report) };
  }),
  deleteACodeInsightsReport: signedIn((ctx, repo, ci) => {
    const at = key(repo, ctx);
    ci.reports.set(
      at,
      listOf(ci.reports, at).filter((r) => r.key !== ctx.params.key),
    );
    ci.annotations.set(
      at,
      listOf(ci.annotations, at).filter((a) => a.reportKey !== ctx.params.key),
    );
    return { status: 204 };
  }),
  getAnnotations_1: signedIn((ctx, repo, ci) => ({
    status: 200,
    body: { annotations: listOf(ci.annotations, key(repo, ctx)) },
  })),
  getAnnotations: withReport((ctx, _repo, ci, at) => ({
    status: 200,
    body: { annotations: listOf(ci.annotations, at).filter((a) => a.reportKey === ctx.params.key) },
  })),
  addAnnotations: withReport((ctx, _repo, ci, at) => {
    const list = ((ctx.body ?? {}) as { annotations?: Record<string, unknown>[] }).annotations ?? [];
    const errors = list.length ? list.flatMap(annotationErrors) : ['annotations: at least one is required.'];
    if (errors.length) return invalid(errors);
    listOf(ci.annotations, at).push(
      ...list.map((a) => ({ ...a, reportKey: ctx.params.key }) as FakeAnnotation),
    );
    return { status: 204 };
  }),
  setAnnotation: withReport((ctx, _repo, ci, at) => {
    const a = (ctx.body ?? {}) as Record<string, unknown>;
    const errors = annotationErrors(a);
    if (errors.length) return invalid(errors);
    const list = listOf(ci.annotations, at).filter(
      (x) => !(x.reportKey === ctx.params.key && x.externalId === ctx.params.externalId),
    );
    list.push({ ...a, externalId: ctx.params.externalId, reportKey: ctx.params.key });
    ci.annotations.set(at, list);
    return { status: 204 };
  }),
  deleteAnnotations: withReport((ctx, _repo, ci, at) => {
    const id = ctx.query.get('externalId');
    ci.annotations.set(
      at,
      listOf(ci.annotations, at).filter(
        (a) => a.reportKey !== ctx.params.key || (id !== null && a.externalId !== id),
      ),
    );
    return { status: 204 };
  }),
};
