import type { RepoCreateOutput } from '../../../../generated/types/cli/output/repo-create.ts';
import { RealmforgeError, UsageError } from '../../../core/errors.ts';
import { statusOf } from '../../api/errors.ts';
import { identify } from '../../api/identity.ts';
import type { Page } from '../../api/paging.ts';
import { projectPath } from '../../api/projects.ts';
import { type RestRepository, repoPath, toRepository } from '../../api/repositories.ts';
import { defineCommand } from '../../command.ts';
import { normalizeProjectKey } from '../../config/remote-url.ts';
import { makePlan } from '../../output/plan.ts';

type Options = { project: string; name: string; slug: string; description?: string; defaultBranch?: string };

/** The slug Bitbucket derives from a repository name. */
export function slugOf(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** `bbdc repo create <name> --project KEY`: creates a repository; --dry-run predicts create or conflict. */
export const command = defineCommand<Options, RepoCreateOutput>({
  name: 'repo create',
  summary: 'Create a repository in a project',
  args: [{ name: 'name', required: true, description: 'Repository name; the slug is derived from it' }],
  flags: {
    project: {
      type: 'string',
      shortFlag: 'p',
      value: 'KEY',
      description: 'Project to create it in (required)',
    },
    description: { type: 'string', value: 'TEXT', description: 'Repository description' },
    defaultBranch: { type: 'string', value: 'BRANCH', description: 'Default branch name' },
  },
  outputSchema: 'repo-create',
  effect: 'mutating',
  examples: ['bbdc repo create my-service --project PROJ --dry-run'],
  parse: ({ args, flags }) => {
    if (!flags.project) throw new UsageError('--project KEY is required for bbdc repo create');
    const slug = slugOf(args[0]);
    if (!slug) throw new UsageError(`repository name "${args[0]}" has no letters or digits`);
    return {
      project: normalizeProjectKey(String(flags.project)),
      name: args[0],
      slug,
      description: flags.description as string | undefined,
      defaultBranch: flags.defaultBranch as string | undefined,
    };
  },
  async plan(o, deps) {
    const host = await deps.host();
    const client = await deps.client(host);
    const { username } = await identify(client, host.url);
    const admin = await client.get<Page<{ key: string }>>('/rest/api/latest/projects', {
      permission: 'PROJECT_ADMIN',
      limit: 1000,
    });
    const project = await client.get<{ key: string }>(projectPath(o.project)).catch((e) => {
      if (statusOf(e) === 404) return undefined;
      throw e;
    });
    if (project && !admin.values.some((p) => p.key.toUpperCase() === o.project)) {
      throw new RealmforgeError(
        'auth',
        `${username} lacks PROJECT_ADMIN on ${o.project}, which creating a repository needs`,
      );
    }
    const existing = project
      ? await client.get<RestRepository>(repoPath(o.project, o.slug)).catch((e) => {
          if (statusOf(e) === 404) return undefined;
          throw e;
        })
      : undefined;
    const blocking = !project
      ? [`project ${o.project} does not exist`]
      : existing
        ? [`repository ${o.project}/${o.slug} already exists`]
        : [];
    return makePlan({
      intent: `bbdc repo create ${o.name} --project ${o.project}`,
      target: { type: 'repository', id: `${o.project}/${o.slug}`, host: host.url },
      action: {
        type: 'http',
        description: `create repository ${o.project}/${o.slug}`,
        method: 'POST',
        path: `/rest/api/latest/projects/${o.project}/repos`,
        body: body(o),
      },
      predictedAction: blocking.length ? 'conflict' : 'create',
      reasons: [
        `authenticated as ${username}`,
        ...(project ? [`${username} has PROJECT_ADMIN on ${o.project}`] : []),
      ],
      blockingReasons: blocking,
    });
  },
  async run(o, deps) {
    const client = await deps.client();
    const res = await client.request<RestRepository>('POST', `${projectPath(o.project)}/repos`, {
      body: body(o),
    });
    return toRepository(res.data);
  },
  human(d, ui) {
    ui.line(`Created ${d.project}/${d.slug}${d.url ? `: ${d.url}` : ''}`);
  },
});

function body(o: Options) {
  return {
    name: o.name,
    scmId: 'git',
    ...(o.description && { description: o.description }),
    ...(o.defaultBranch && { defaultBranch: o.defaultBranch }),
  };
}
