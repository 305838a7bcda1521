import type { BulkSelector } from '../../../generated/types/cli/bulk/policy.ts';
import { ValidationError } from '../../core/errors.ts';
import type { BitbucketClient } from '../api/client.ts';
import { statusOf } from '../api/errors.ts';
import { collectPages } from '../api/paging.ts';
import { projectPath } from '../api/projects.ts';
import { type RestRepository, repoPath } from '../api/repositories.ts';
import { globToRegExp } from './glob.ts';

/** The selector's repositories as sorted `PROJECT/slug`: projectKey's slugs matching slugGlob, plus the explicit ones. */
export async function resolveTargets(client: BitbucketClient, selector: BulkSelector): Promise<string[]> {
  const found = new Set<string>();
  if (selector.projectKey) {
    const path = `${projectPath(selector.projectKey)}/repos`;
    const { values } = await collectPages<RestRepository>(client, path, {}, undefined).catch((error) => {
      if (statusOf(error) === 404)
        throw new ValidationError(
          `selector.projectKey: project ${selector.projectKey} does not exist on ${client.baseUrl}`,
        );
      throw error;
    });
    const glob = globToRegExp(selector.slugGlob ?? '*');
    for (const r of values) if (glob.test(r.slug)) found.add(`${r.project.key}/${r.slug}`);
  }
  const missing: string[] = [];
  for (const [i, name] of (selector.repositories ?? []).entries()) {
    if (found.has(name)) continue;
    const [project, slug] = name.split('/');
    try {
      const r = await client.get<RestRepository>(repoPath(project, slug));
      found.add(`${r.project.key}/${r.slug}`);
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
      missing.push(`selector.repositories[${i}]: repository ${name} does not exist`);
    }
  }
  if (missing.length)
    throw new ValidationError('the policy names repositories the server does not have', { details: missing });
  return [...found].sort();
}
