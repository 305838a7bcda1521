// `insights annotation add|set|delete`: each builds its one request here, for the plan and the run alike.
import type { InsightsAnnotationsOutput } from '../../../../generated/types/cli/output/insights-annotations.ts';
import { type RestAnnotation, type RestInsightReport, reportPath } from '../../api/insights.ts';
import { getIfExists } from '../../api/optional.ts';
import type { CommandDeps } from '../../command.ts';
import { apply, type Change, planOf } from '../../output/change.ts';
import { insightsContext, toAnnotation } from './common.ts';

/** What an annotation command asks for. */
export type AnnotationOptions = {
  verb: 'add' | 'set' | 'delete';
  commit: string;
  report: string;
  externalId?: string;
  annotation?: RestAnnotation;
};

async function prepare(
  o: AnnotationOptions,
  deps: CommandDeps,
): Promise<{ change: Change; repository: string }> {
  const { repo, client, repository } = await insightsContext(deps);
  const report = await getIfExists<RestInsightReport>(client, reportPath(repo, o.commit, o.report));
  const request =
    o.verb === 'add'
      ? {
          method: 'POST',
          path: reportPath(repo, o.commit, o.report, '/annotations'),
          body: { annotations: [o.annotation] },
        }
      : o.verb === 'set'
        ? {
            method: 'PUT',
            path: reportPath(repo, o.commit, o.report, `/annotations/${encodeURIComponent(o.externalId!)}`),
            body: o.annotation,
          }
        : {
            method: 'DELETE',
            path: reportPath(repo, o.commit, o.report, '/annotations'),
            query: { externalId: o.externalId },
          };
  const what = o.externalId
    ? `annotation ${o.externalId}`
    : o.verb === 'delete'
      ? 'every annotation'
      : 'an annotation';
  return {
    repository,
    change: {
      client,
      intent: `bbdc insights annotation ${o.verb} ${o.commit.slice(0, 11)} ${o.report}`,
      host: repo.host.url,
      target: { type: 'insights-report', id: `${repository}@${o.commit.slice(0, 11)}/${o.report}` },
      request,
      description: `${o.verb === 'set' ? 'create or replace' : o.verb} ${what} ${o.verb === 'delete' ? 'of' : 'in'} report ${o.report}`,
      predicted: o.verb === 'delete' ? 'delete' : o.verb === 'add' ? 'create' : 'update',
      reasons: report ? [`report ${o.report} exists`] : [],
      // Annotations belong to a report: Bitbucket refuses them on a commit without it.
      blocking: report
        ? []
        : [
            `commit ${o.commit.slice(0, 11)} has no report ${o.report}; create it with \`bbdc insights report set\``,
          ],
    },
  };
}

/** The dry-run plan. */
export const planAnnotation = async (o: AnnotationOptions, deps: CommandDeps) =>
  planOf((await prepare(o, deps)).change);

/** Sends the change; answers what was added, set or deleted. */
export async function runAnnotation(
  o: AnnotationOptions,
  deps: CommandDeps,
): Promise<InsightsAnnotationsOutput> {
  const { change, repository } = await prepare(o, deps);
  await apply(change);
  return {
    repository,
    commit: o.commit,
    report: o.report,
    ...(o.verb === 'delete' && { deleted: true }),
    annotations: o.annotation ? [toAnnotation(o.annotation)] : [],
  };
}
