import type { BuildRequiredListOutput } from '../../../../generated/types/cli/output/build-required-list.ts';
import { type RestRequiredBuilds, requiredBuildsPath } from '../../api/builds.ts';
import { collectPages } from '../../api/paging.ts';
import { limitFlag } from '../../cli/paging-flags.ts';
import { defineCommand } from '../../command.ts';
import { positiveInt } from '../repo/list.ts';
import { printRequiredBuilds, toRequiredBuilds } from './required.ts';

/** `bbdc build required list`: the required-builds merge checks of the repository. */
export const command = defineCommand<{ limit: number }, BuildRequiredListOutput>({
  name: 'build required list',
  summary: 'List the required-builds merge checks of a repository',
  description:
    'Each check names builds that must be green before a pull request into the matching branches can merge.',
  args: [],
  flags: {
    limit: limitFlag('checks', 100),
  },
  outputSchema: 'build-required-list',
  effect: 'safe',
  examples: ['bbdc build required list -R PROJ/api'],
  parse: ({ flags }) => ({ limit: positiveInt(flags.limit, '--limit', 100) }),
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { values, truncated } = await collectPages<RestRequiredBuilds>(
      client,
      requiredBuildsPath(repo.project, repo.slug),
      {},
      o.limit,
    );
    const checks = values.map(toRequiredBuilds);
    return { repository: `${repo.project}/${repo.slug}`, checks, count: checks.length, truncated };
  },
  human(d, ui) {
    if (d.checks.length === 0) ui.notice(`No required builds in ${d.repository}.`);
    else printRequiredBuilds(d.checks, ui);
  },
});
