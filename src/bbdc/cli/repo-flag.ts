import { UsageError } from '../../core/errors.ts';
import { normalizeProjectKey, urlScheme } from '../config/remote-url.ts';

/** `-R [HOST/]PROJECT/slug` split into its parts; the host may carry a context path. */
export type RepoFlag = { host?: string; project: string; slug: string };

/** Parses the value of -R/--repo or throws a UsageError showing the expected form. */
export function parseRepoFlag(value: string): RepoFlag {
  const cleaned = value.trim().replace(urlScheme, (s) => s.toLowerCase());
  const scheme = /^(https?:\/\/)/.exec(cleaned)?.[1] ?? '';
  const parts = cleaned.slice(scheme.length).split('/').filter(Boolean);
  if (parts.length < 2) {
    throw new UsageError(
      `-R/--repo "${value}" must be [HOST/]PROJECT/slug, e.g. PROJ/my-repo or bitbucket.example.com/PROJ/my-repo`,
    );
  }
  const slug = parts
    .at(-1)!
    .replace(/\.git$/, '')
    .toLowerCase();
  const project = normalizeProjectKey(parts.at(-2)!);
  const hostParts = parts.slice(0, -2);
  return { host: hostParts.length ? `${scheme}${hostParts.join('/')}` : undefined, project, slug };
}
