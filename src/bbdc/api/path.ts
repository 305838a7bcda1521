// The one way bbdc builds a REST path from user input. Every dynamic segment is named after the argument it came
// from, refused when URL normalisation would change its meaning (`.`, `..`, empty), and percent-encoded; so the
// path sent is exactly the path named in messages (`..` as a slug would otherwise address the project).
import { UsageError } from '../../core/errors.ts';

/** One dynamic segment of a path: the argument it came from (for messages) and its value. */
export type Segment = { readonly argument: string; readonly value: string | number };

/** A checked path segment, encoded; throws a usage error naming `argument` for `.`, `..` or an empty value. */
export function segment(argument: string, value: string | number): string {
  const text = String(value);
  if (text === '' || text === '.' || text === '..') {
    const shown = text === '' ? 'an empty value' : `"${text}"`;
    throw new UsageError(`${argument} cannot be ${shown}: it would address a different resource`);
  }
  return encodeURIComponent(text);
}

/** A multi-segment file path inside a repository (`src/main.ts`): each part checked and encoded, `/` kept. */
export function filePath(argument: string, value: string): string {
  const parts = value.replace(/^\/+/, '').split('/');
  return parts.map((part) => segment(argument, part)).join('/');
}

/**
 * A path from a template whose dynamic parts are Segments:
 * restPath`/rest/api/latest/projects/${{ argument: 'project', value: key }}/repos` .
 */
export function restPath(strings: TemplateStringsArray, ...segments: Segment[]): string {
  let out = strings[0] ?? '';
  segments.forEach((s, i) => {
    out += segment(s.argument, s.value) + (strings[i + 1] ?? '');
  });
  return out;
}

/** A repository under a plugin's REST root, e.g. `/rest/required-builds/latest/projects/P/repos/r`. */
export function pluginRepoPath(plugin: string, project: string, slug: string): string {
  return `/rest/${plugin}/latest/projects/${segment('project', project)}/repos/${segment('repository', slug)}`;
}

/** A user by name or slug (`argument` names where it came from, e.g. `--reviewer`). */
export function userPath(argument: string, name: string): string {
  return `/rest/api/latest/users/${segment(argument, name)}`;
}
