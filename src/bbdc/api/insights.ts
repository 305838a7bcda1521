// Code Insights: reports and annotations a CI tool attaches to a commit (/rest/insights/latest).
import type { InsightReport } from '../../../generated/types/cli/output/insights-report.ts';
import { UsageError } from '../../core/errors.ts';
import { segment } from './path.ts';
import type { RepoRef } from './pull-requests.ts';
import { utcIso } from './timestamps.ts';

/** A report as Bitbucket returns it. */
export type RestInsightReport = {
  key: string;
  title: string;
  result?: 'PASS' | 'FAIL';
  details?: string;
  link?: string;
  reporter?: string;
  createdDate?: number;
  data?: { title: string; type?: string; value: unknown }[];
};
/** An annotation as Bitbucket returns it. */
export type RestAnnotation = {
  externalId?: string;
  reportKey?: string;
  path?: string;
  line?: number;
  message: string;
  severity: string;
  type?: string;
  link?: string;
};

/** The REST path of a commit's insights, or of something under it (`suffix` starts with `/`). */
export function insightsPath(repo: RepoRef, commit: string, suffix = ''): string {
  return `/rest/insights/latest/projects/${segment('project', repo.project)}/repos/${segment('repository', repo.slug)}/commits/${segment('commit', commit)}${suffix}`;
}

/** The path of one report. */
export function reportPath(repo: RepoRef, commit: string, key: string, suffix = ''): string {
  return insightsPath(repo, commit, `/reports/${segment('report', key)}${suffix}`);
}

/** The report shape bbdc prints. */
export function toReport(r: RestInsightReport): InsightReport {
  return {
    key: r.key,
    title: r.title,
    ...(r.result && { result: r.result }),
    ...(r.details && { details: r.details }),
    ...(r.link && { link: r.link }),
    ...(r.reporter && { reporter: r.reporter }),
    ...(r.createdDate !== undefined && { createdDate: utcIso(r.createdDate) }),
    data: (r.data ?? []).map((d) => ({
      title: d.title,
      type: (d.type ?? 'TEXT') as InsightReport['data'][number]['type'],
      value: d.value as never,
    })),
  };
}

/** `--data TITLE=VALUE`: numbers become NUMBER, true/false BOOLEAN, http(s) URLs LINK, the rest TEXT. */
export function parseDataFlag(values: string[]): { title: string; type: string; value: unknown }[] {
  if (values.length > 6)
    throw new UsageError(`--data: a report holds at most 6 data items, got ${values.length}`);
  return values.map((v) => {
    const eq = v.indexOf('=');
    if (eq < 1) throw new UsageError(`--data "${v}" must be TITLE=VALUE, e.g. Coverage=87.5`);
    const [title, raw] = [v.slice(0, eq), v.slice(eq + 1)];
    if (/^-?\d+(\.\d+)?$/.test(raw)) return { title, type: 'NUMBER', value: Number(raw) };
    if (raw === 'true' || raw === 'false') return { title, type: 'BOOLEAN', value: raw === 'true' };
    if (/^https?:\/\//.test(raw)) return { title, type: 'LINK', value: { linktext: raw, href: raw } };
    return { title, type: 'TEXT', value: raw };
  });
}
