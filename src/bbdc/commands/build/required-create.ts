import { isDeepStrictEqual } from 'node:util';
import type { BuildRequiredCreateOutput } from '../../../../generated/types/cli/output/build-required-create.ts';
import { UsageError } from '../../../core/errors.ts';
import { type RestRequiredBuilds, requiredBuildsPath } from '../../api/builds.ts';
import { identify } from '../../api/identity.ts';
import { collectPages } from '../../api/paging.ts';
import { scopedNeeds } from '../../api/permission-check.ts';
import { parseRefMatcher, type RestRefMatcher, refMatcherSyntax } from '../../api/ref-matcher.ts';
import { defineCommand } from '../../command.ts';
import { makePlan } from '../../output/plan.ts';
import { printRequiredBuilds, toRequiredBuilds } from './required.ts';

type Body = { buildParentKeys: string[]; refMatcher: RestRefMatcher; exemptRefMatcher?: RestRefMatcher };

/** `bbdc build required create --builds ci,lint [--branch main]`: a new required-builds merge check. */
export const command = defineCommand<{ body: Body }, BuildRequiredCreateOutput>({
  name: 'build required create',
  summary: 'Require green builds before pull requests merge',
  description: `Pull requests into the --branch refs cannot merge until the named builds succeed on their latest commit. Matchers: ${refMatcherSyntax}. Needs REPO_ADMIN.`,
  args: [],
  flags: {
    builds: {
      type: 'string',
      isMultiple: true,
      value: 'KEYS',
      description: 'Build keys that must succeed, comma-separated or repeated (required)',
    },
    branch: {
      type: 'string',
      value: 'MATCHER',
      description: 'Target branches the check applies to (default any)',
    },
    exempt: { type: 'string', value: 'MATCHER', description: 'Source branches exempt from the check' },
  },
  outputSchema: 'build-required-create',
  effect: 'mutating',
  needs: scopedNeeds('REPO_ADMIN', 'changing required builds'),
  examples: [
    'bbdc build required create --builds ci,lint --branch main -R PROJ/api',
    "bbdc build required create --builds ci --branch 'pattern:release/*'",
  ],
  parse: ({ flags }) => {
    const keys = ((flags.builds as string[] | undefined) ?? []).flatMap((k) =>
      k
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    );
    if (keys.length === 0)
      throw new UsageError(
        '--builds KEYS is required: the build keys that must succeed, e.g. --builds ci,lint',
      );
    if (keys.length > 100) throw new UsageError(`--builds names ${keys.length} keys; Bitbucket allows 100`);
    const body: Body = {
      buildParentKeys: [...new Set(keys)],
      refMatcher: parseRefMatcher(String(flags.branch ?? 'any'), '--branch'),
    };
    if (flags.exempt !== undefined) body.exemptRefMatcher = parseRefMatcher(String(flags.exempt), '--exempt');
    return { body };
  },
  async plan(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const { username } = await identify(client, repo.host.url);
    const path = requiredBuildsPath(repo.project, repo.slug);
    const { values } = await collectPages<RestRequiredBuilds>(client, path, {}, undefined);
    const same = values.filter(
      (c) =>
        isDeepStrictEqual([...c.buildParentKeys].sort(), [...o.body.buildParentKeys].sort()) &&
        c.refMatcher.id === o.body.refMatcher.id &&
        c.exemptRefMatcher?.id === o.body.exemptRefMatcher?.id,
    );
    const summary = toRequiredBuilds({ id: 0, ...o.body });
    return makePlan({
      intent: `bbdc build required create --builds ${o.body.buildParentKeys.join(',')} --branch ${summary.branches}`,
      target: { type: 'required-builds', id: `${repo.project}/${repo.slug}`, host: repo.host.url },
      action: {
        type: 'http',
        description: `require ${summary.buildKeys.join(', ')} on ${summary.branches} in ${repo.project}/${repo.slug}`,
        method: 'POST',
        path: requiredBuildsPath(repo.project, repo.slug, 'new'),
        body: o.body,
      },
      predictedAction: same.length ? 'no-op' : 'create',
      reasons: [
        `authenticated as ${username}`,
        same.length
          ? `check ${same[0].id} already requires exactly these builds on these branches`
          : `${values.length} required-builds check${values.length === 1 ? '' : 's'} exist`,
      ],
      blockingReasons: [],
    });
  },
  async run(o, deps) {
    const repo = await deps.repo();
    const client = await deps.client(repo.host);
    const path = requiredBuildsPath(repo.project, repo.slug, 'new');
    const res = await client.request<RestRequiredBuilds>('POST', path, { body: o.body });
    return { repository: `${repo.project}/${repo.slug}`, check: toRequiredBuilds(res.data) };
  },
  human(d, ui) {
    ui.line(`Created required-builds check ${d.check.id} in ${d.repository}.`);
    printRequiredBuilds([d.check], ui);
  },
});
