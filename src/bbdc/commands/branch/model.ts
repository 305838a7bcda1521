// The branching model of a repository (`branch model inspect|update`): GET and PUT on
// /rest/branch-utils/latest/.../branchmodel/configuration, which live servers serve although Atlassian's published
// documents leave it out (test/fake-bitbucket/deviations.ts: branch-model-get, branch-model-set, with evidence).
import type { BranchModelOutput } from '../../../../generated/types/cli/output/branch-model.ts';
import { pluginRepoPath } from '../../api/path.ts';
import type { RepoContext } from '../../command.ts';
import type { Ui } from '../../output/ui.ts';

type RestRef = { refId?: string | null; useDefault?: boolean };
/** The configuration as the server answers it, every part optional; PUT takes the same shape back. */
export type RestBranchModel = {
  development?: RestRef;
  production?: RestRef | null;
  types?: { id?: string; displayName?: string; enabled?: boolean; prefix?: string }[];
};

export const modelPath = (repo: RepoContext) =>
  `${pluginRepoPath('branch-utils', repo.project, repo.slug)}/branchmodel/configuration`;

const branch = (r: RestRef) => ({
  useDefault: r.useDefault !== false,
  ...(r.useDefault === false && r.refId && { branch: r.refId.replace(/^refs\/heads\//, '') }),
});

/** The printed model. */
export function toModel(repo: RepoContext, m: RestBranchModel | undefined): BranchModelOutput {
  return {
    repository: `${repo.project}/${repo.slug}`,
    development: branch(m?.development ?? {}),
    ...(m?.production && { production: branch(m.production) }),
    types: (Array.isArray(m?.types) ? m.types : []).flatMap((t) =>
      t?.id
        ? [
            {
              id: t.id,
              enabled: t.enabled !== false,
              ...(t.displayName && { name: t.displayName }),
              ...(t.prefix && { prefix: t.prefix }),
            },
          ]
        : [],
    ),
  };
}

export function printModel(d: BranchModelOutput, ui: Ui): void {
  const where = (b: BranchModelOutput['development']) =>
    b.useDefault ? '(the default branch)' : (b.branch ?? '?');
  ui.line(`Development: ${where(d.development)}`);
  ui.line(`Production: ${d.production ? where(d.production) : 'none'}`);
  ui.table(
    ['type', 'prefix', 'enabled'],
    d.types.map((t) => [t.name ?? t.id, t.prefix ?? '', t.enabled ? 'yes' : 'no']),
  );
}
