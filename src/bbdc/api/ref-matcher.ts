import { UsageError } from '../../core/errors.ts';

/** A ref matcher as the required-builds and default-reviewers plugins take and return it. */
export type RestRefMatcher = { id: string; displayId?: string; type: { id: string; name?: string } };

/** How bbdc writes a matcher on the command line and in output. */
export const refMatcherSyntax =
  'any, a branch (main), pattern:GLOB, model:development|production or category:FEATURE|BUGFIX|HOTFIX|RELEASE';

const categories = ['FEATURE', 'BUGFIX', 'HOTFIX', 'RELEASE'];
const models = ['development', 'production'];

/** Parses `any`, `main`, `pattern:release/*`, `model:production` or `category:FEATURE`, naming the flag when wrong. */
export function parseRefMatcher(text: string, flag: string): RestRefMatcher {
  const value = text.trim();
  if (value === 'any') return { id: 'ANY_REF_MATCHER_ID', type: { id: 'ANY_REF' } };
  const colon = value.indexOf(':');
  const kind = colon > 0 ? value.slice(0, colon) : '';
  const rest = colon > 0 ? value.slice(colon + 1) : value;
  if (kind === 'pattern' && rest) return { id: rest, displayId: rest, type: { id: 'PATTERN' } };
  if (kind === 'model' && models.includes(rest))
    return { id: rest, displayId: rest, type: { id: 'MODEL_BRANCH' } };
  if (kind === 'category' && categories.includes(rest.toUpperCase()))
    return { id: rest.toUpperCase(), displayId: rest.toUpperCase(), type: { id: 'MODEL_CATEGORY' } };
  if (!kind && value && !/\s/.test(value)) {
    const branch = value.replace(/^refs\/heads\//, '');
    return { id: `refs/heads/${branch}`, displayId: branch, type: { id: 'BRANCH' } };
  }
  throw new UsageError(`${flag} "${text}" is not a ref matcher; use ${refMatcherSyntax}`);
}

/** Writes a matcher back in the command-line syntax, e.g. `pattern:release/*`. */
export function formatRefMatcher(m: RestRefMatcher | undefined): string {
  if (!m) return '';
  switch (m.type?.id) {
    case 'ANY_REF':
      return 'any';
    case 'BRANCH':
      return m.displayId ?? m.id.replace(/^refs\/heads\//, '');
    case 'PATTERN':
      return `pattern:${m.id}`;
    case 'MODEL_BRANCH':
      return `model:${m.id}`;
    case 'MODEL_CATEGORY':
      return `category:${m.id}`;
    default:
      return `${m.type?.id ?? 'unknown'}:${m.id}`;
  }
}
