import type { RequiredBuilds } from '../../../../generated/types/cli/output/build-required-list.ts';
import type { RestRequiredBuilds } from '../../api/builds.ts';
import { formatRefMatcher } from '../../api/ref-matcher.ts';
import type { Ui } from '../../output/ui.ts';

/** The printed merge check: build keys and the branches it guards, in the command-line matcher syntax. */
export function toRequiredBuilds(c: RestRequiredBuilds): RequiredBuilds {
  const out: RequiredBuilds = {
    id: c.id,
    buildKeys: [...c.buildParentKeys],
    branches: formatRefMatcher(c.refMatcher),
  };
  if (c.exemptRefMatcher) out.exempt = formatRefMatcher(c.exemptRefMatcher);
  return out;
}

/** Prints merge checks as a table. */
export function printRequiredBuilds(checks: RequiredBuilds[], ui: Ui): void {
  ui.table(
    ['id', 'builds', 'branches', 'exempt'],
    checks.map((c) => [String(c.id), c.buildKeys.join(','), c.branches, c.exempt ?? '']),
  );
}
