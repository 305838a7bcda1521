import type { BuildRequiredCreateOutput } from '../../../../generated/types/cli/output/build-required-create.ts';
import { UsageError } from '../../../core/errors.ts';
import { type RestRequiredBuilds, requiredBuildsPath } from '../../api/builds.ts';
import { collectPages } from '../../api/paging.ts';
import { scopedNeeds } from '../../api/permission-check.ts';
import { parseRefMatcher, refMatcherSyntax } from '../../api/ref-matcher.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { apply, type Change, planOf } from '../../output/change.ts';
import { printRequiredBuilds, toRequiredBuilds } from './required.ts';

type Options = { id: number; builds?: string[]; branch?: string; exempt?: string };

async function prepare(o: Options, deps: CommandDeps) {
  const repo = await deps.repo();
  const client = await deps.client(repo.host);
  const { values } = await collectPages<RestRequiredBuilds>(
    client,
    requiredBuildsPath(repo.project, repo.slug),
    {},
    undefined,
  );
  const current = values.find((c) => c.id === o.id);
  // PUT replaces the check: what is not given is sent as it is now.
  const body = current && {
    buildParentKeys: o.builds ?? current.buildParentKeys,
    refMatcher: o.branch ? parseRefMatcher(o.branch, '--branch') : current.refMatcher,
    ...((o.exempt || current.exemptRefMatcher) && {
      exemptRefMatcher: o.exempt ? parseRefMatcher(o.exempt, '--exempt') : current.exemptRefMatcher,
    }),
  };
  const same =
    current &&
    body &&
    JSON.stringify(toRequiredBuilds({ id: o.id, ...body })) === JSON.stringify(toRequiredBuilds(current));
  const change: Change = {
    client,
    intent: `bbdc build required update ${o.id}`,
    host: repo.host.url,
    target: { type: 'required-builds', id: `${repo.project}/${repo.slug}/${o.id}` },
    request: { method: 'PUT', path: requiredBuildsPath(repo.project, repo.slug, o.id), body },
    description: `update required-builds check ${o.id}`,
    predicted: same ? 'no-op' : 'update',
    reasons: current ? [`it requires ${current.buildParentKeys.join(', ')}`] : [],
    blocking: current
      ? []
      : [`no required-builds check ${o.id} in ${repo.project}/${repo.slug}; see bbdc build required list`],
  };
  return { repository: `${repo.project}/${repo.slug}`, current, change };
}

/** `bbdc build required update <id>`: changes the builds or branches of a required-builds merge check. */
export const command = defineCommand<Options, BuildRequiredCreateOutput>({
  name: 'build required update',
  summary: 'Change the builds or branches of a required-builds merge check',
  description: `Only the flags given change. Matchers: ${refMatcherSyntax}. Needs REPO_ADMIN.`,
  args: [{ name: 'id', required: true, description: 'Check id (see bbdc build required list)' }],
  flags: {
    builds: {
      type: 'string',
      isMultiple: true,
      value: 'KEYS',
      description: 'Build keys that must succeed (replace the old ones)',
    },
    branch: { type: 'string', value: 'MATCHER', description: 'Target branches the check applies to' },
    exempt: { type: 'string', value: 'MATCHER', description: 'Source branches exempt from the check' },
  },
  outputSchema: 'build-required-create',
  effect: 'mutating',
  needs: scopedNeeds('REPO_ADMIN', 'changing required builds'),
  examples: ['bbdc build required update 3 --builds ci,lint,e2e'],
  parse: ({ args, flags }) => {
    if (!/^\d+$/.test(String(args[0] ?? '')))
      throw new UsageError(`check id "${args[0]}" must be a number (see bbdc build required list)`);
    const builds = ((flags.builds as string[] | undefined) ?? [])
      .flatMap((k) => k.split(','))
      .map((k) => k.trim())
      .filter(Boolean);
    const o: Options = {
      id: Number(args[0]),
      ...(builds.length && { builds: [...new Set(builds)] }),
      ...(flags.branch !== undefined && { branch: String(flags.branch) }),
      ...(flags.exempt !== undefined && { exempt: String(flags.exempt) }),
    };
    if (!o.builds && !o.branch && !o.exempt)
      throw new UsageError('nothing to change: pass --builds, --branch or --exempt');
    return o;
  },
  plan: async (o, deps) => planOf((await prepare(o, deps)).change),
  async run(o, deps) {
    const p = await prepare(o, deps);
    const res = await apply<RestRequiredBuilds>(p.change);
    return { repository: p.repository, check: toRequiredBuilds(res?.data ?? p.current!) };
  },
  human(d, ui) {
    ui.line(`Required-builds check ${d.check.id} in ${d.repository}:`);
    printRequiredBuilds([d.check], ui);
  },
});
