import type { BuildStatusDeleteOutput } from '../../../../generated/types/cli/output/build-status-delete.ts';
import { UsageError } from '../../../core/errors.ts';
import { buildsPath, fullCommitId, type RestBuildStatus } from '../../api/builds.ts';
import { getIfExists } from '../../api/optional.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { apply, planOf } from '../../output/change.ts';

type Options = { commit: string; key: string };

async function prepare(o: Options, deps: CommandDeps) {
  const repo = await deps.repo();
  const client = await deps.client(repo.host);
  const path = buildsPath(repo.project, repo.slug, o.commit);
  const existing = await getIfExists<RestBuildStatus>(client, path, { key: o.key });
  return {
    repository: `${repo.project}/${repo.slug}`,
    existed: existing !== undefined,
    change: {
      client,
      intent: `bbdc build status delete ${o.commit.slice(0, 11)} --key ${o.key}`,
      host: repo.host.url,
      target: { type: 'build-status', id: `${repo.project}/${repo.slug}@${o.commit.slice(0, 11)}/${o.key}` },
      request: { method: 'DELETE', path, query: { key: o.key } },
      description: `delete build status ${o.key} of ${o.commit.slice(0, 11)}`,
      predicted: existing ? ('delete' as const) : ('no-op' as const),
      reasons: [
        existing
          ? `the status is ${existing.state}`
          : `no build status ${o.key} on the commit in this repository`,
      ],
    },
  };
}

/** `bbdc build status delete <commit> --key K`: removes one build status from the repository's commit. */
export const command = defineCommand<Options, BuildStatusDeleteOutput>({
  name: 'build status delete',
  summary: 'Delete a build status of a commit in a repository',
  description:
    'Needs REPO_ADMIN. Statuses reported without a repository (the legacy commit-wide list) are not affected.',
  args: [{ name: 'commit', required: true, description: 'Full 40-character commit id' }],
  flags: { key: { type: 'string', value: 'KEY', description: 'Build key (required)' } },
  outputSchema: 'build-status-delete',
  effect: 'mutating',
  examples: ['bbdc build status delete <sha> --key ci -R PROJ/api'],
  parse: ({ args, flags }) => {
    if (!flags.key) throw new UsageError('--key KEY is required: the build status to delete');
    return { commit: fullCommitId(args[0]), key: String(flags.key) };
  },
  plan: async (o, deps) => planOf((await prepare(o, deps)).change),
  async run(o, deps) {
    const p = await prepare(o, deps);
    await apply(p.change);
    return { repository: p.repository, commit: o.commit, key: o.key, deleted: p.existed };
  },
  human(d, ui) {
    ui.line(
      d.deleted
        ? `Deleted build status ${d.key} of ${d.commit.slice(0, 11)}`
        : `No build status ${d.key}; nothing to delete`,
    );
  },
});
