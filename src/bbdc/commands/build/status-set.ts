import type { BuildStatusSetOutput } from '../../../../generated/types/cli/output/build-status-set.ts';
import { UsageError } from '../../../core/errors.ts';
import { buildsPath, fullCommitId, type RestBuildStatus, toBuildStatus } from '../../api/builds.ts';
import { identify } from '../../api/identity.ts';
import { getIfExists } from '../../api/optional.ts';
import { defineCommand } from '../../command.ts';
import { makePlan } from '../../output/plan.ts';

type Body = {
  key: string;
  state: 'SUCCESSFUL' | 'FAILED' | 'INPROGRESS';
  url: string;
  name?: string;
  description?: string;
  ref?: string;
  buildNumber?: string;
};
type Options = { commit: string; body: Body };

function required(flags: Record<string, unknown>, name: string, value: string): string {
  if (flags[name] === undefined)
    throw new UsageError(`--${name} ${value} is required for bbdc build status set`);
  return String(flags[name]);
}

function parseBody(flags: Record<string, unknown>): Body {
  const state = required(flags, 'state', 'SUCCESSFUL|FAILED|INPROGRESS') as Body['state'];
  const key = required(flags, 'key', 'KEY');
  const url = required(flags, 'url', 'URL');
  if (key.length > 255) throw new UsageError(`--key is ${key.length} characters long; Bitbucket allows 255`);
  if (!/^https?:\/\//.test(url)) throw new UsageError(`--url "${url}" must be an http:// or https:// URL`);
  if (url.length > 450) throw new UsageError(`--url is ${url.length} characters long; Bitbucket allows 450`);
  const body: Body = { key, state, url };
  if (flags.name !== undefined) body.name = String(flags.name);
  if (flags.description !== undefined) body.description = String(flags.description);
  if (flags.ref !== undefined) {
    const ref = String(flags.ref);
    if (!ref.startsWith('refs/'))
      throw new UsageError(`--ref "${ref}" must be a full ref name, e.g. refs/heads/${ref}`);
    body.ref = ref;
  }
  if (flags.buildNumber !== undefined) body.buildNumber = String(flags.buildNumber);
  return body;
}

/** The fields of `current` that the body would change. */
function changes(current: RestBuildStatus | undefined, body: Body): string[] {
  if (!current) return [];
  return (Object.keys(body) as (keyof Body)[]).filter((k) => current[k] !== body[k]);
}

/** `bbdc build status set <commit>`: reports a build result on a commit of the repository. */
export const command = defineCommand<Options, BuildStatusSetOutput>({
  name: 'build status set',
  summary: 'Report a build status on a commit',
  description:
    'Stores the status under its key: setting the same key again replaces it (e.g. INPROGRESS, then SUCCESSFUL). Needs read access to the repository.',
  args: [{ name: 'commit', required: true, description: 'Full 40-character commit id' }],
  flags: {
    state: {
      type: 'string',
      value: 'STATE',
      choices: ['SUCCESSFUL', 'FAILED', 'INPROGRESS'],
      description: 'SUCCESSFUL, FAILED or INPROGRESS (required)',
    },
    key: { type: 'string', value: 'KEY', description: 'Identifies the build; one status per key (required)' },
    url: { type: 'string', value: 'URL', description: 'Link to the build result (required)' },
    name: { type: 'string', value: 'NAME', description: 'Name shown on the commit, e.g. "CI #42"' },
    description: { type: 'string', value: 'TEXT', description: 'A short description of the result' },
    ref: { type: 'string', value: 'REF', description: 'The ref that was built, e.g. refs/heads/main' },
    buildNumber: { type: 'string', value: 'N', description: 'The build number' },
  },
  outputSchema: 'build-status-set',
  effect: 'mutating',
  examples: [
    'bbdc build status set $(git rev-parse HEAD) --state INPROGRESS --key ci --url https://ci.example.com/42',
  ],
  parse: ({ args, flags }) => ({ commit: fullCommitId(args[0]), body: parseBody(flags) }),
  async plan(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { username } = await identify(client, repo.host.url);
    const path = buildsPath(repo.project, repo.slug, o.commit);
    const current = await getIfExists<RestBuildStatus>(client, path, { key: o.body.key });
    const changed = changes(current, o.body);
    return makePlan({
      intent: `bbdc build status set ${o.commit} --state ${o.body.state} --key ${o.body.key}`,
      target: {
        type: 'build-status',
        id: `${repo.project}/${repo.slug}@${o.commit}:${o.body.key}`,
        host: repo.host.url,
      },
      action: {
        type: 'http',
        description: `set build ${o.body.key} to ${o.body.state} on ${o.commit.slice(0, 12)} in ${repo.project}/${repo.slug}`,
        method: 'POST',
        path,
        body: o.body,
      },
      predictedAction: !current ? 'create' : changed.length ? 'update' : 'no-op',
      reasons: [
        `authenticated as ${username}`,
        current
          ? `build ${o.body.key} is ${current.state}${changed.length ? `; changes: ${changed.join(', ')}` : ''}`
          : `no build ${o.body.key} on this commit yet`,
      ],
      blockingReasons: [],
    });
  },
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const path = buildsPath(repo.project, repo.slug, o.commit);
    await client.request('POST', path, { body: o.body });
    const stored = await client.get<RestBuildStatus>(path, { key: o.body.key });
    return { commit: o.commit, repository: `${repo.project}/${repo.slug}`, status: toBuildStatus(stored) };
  },
  human(d, ui) {
    ui.line(`Set ${d.status.key} to ${d.status.state} on ${d.commit.slice(0, 12)} in ${d.repository}`);
  },
});
