// The calls each bulk operation makes on one repository. Reads come first where a create could duplicate
// (webhooks, required builds, default tasks), so applying a plan twice changes nothing the second time.

import type { BulkRequest } from '../../../generated/types/cli/bulk/plan.ts';
import type { BulkOperationSpec } from '../../../generated/types/cli/bulk/policy.ts';
import { RealmforgeError } from '../../core/errors.ts';
import { type RestRequiredBuilds, requiredBuildsPath } from '../api/builds.ts';
import type { BitbucketClient } from '../api/client.ts';
import { collectPages } from '../api/paging.ts';
import { pluginRepoPath } from '../api/path.ts';
import { postPrSettings, toPrSettings } from '../api/pull-request-settings.ts';
import { parseRefMatcher, type RestRefMatcher } from '../api/ref-matcher.ts';
import { repoPath } from '../api/repositories.ts';
import type { Scope } from '../api/scope.ts';
import { type RestWebhook, webhooksPath } from '../api/webhooks.ts';
import type { Logger } from '../output/logger.ts';

/** What a succeeded operation did; `updated` also covers settings written with an idempotent PUT. */
export type OperationResult = 'created' | 'updated' | 'unchanged';

type RestDefaultTask = {
  id: number;
  description: string;
  sourceMatcher: RestRefMatcher;
  targetMatcher: RestRefMatcher;
};

const scopeOf = (repository: string): Scope & { type: 'repository' } => {
  const [project, slug] = repository.split('/');
  return { type: 'repository', project, slug };
};
const defaultTasksPath = (s: Scope & { type: 'repository' }, id?: number) =>
  `${pluginRepoPath('default-tasks', s.project, s.slug)}/tasks${id === undefined ? '' : `/${id}`}`;
const sameMatcher = (a: RestRefMatcher | undefined, b: RestRefMatcher) =>
  a?.id === b.id && a?.type?.id === b.type.id;
const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');

/** One line saying what the operation sets, for plans and status. */
export function describeOperation(op: BulkOperationSpec): string {
  switch (op.type) {
    case 'repositoryPermission':
      return `grant ${op.permission} to ${op.user ? `user ${op.user}` : `group ${op.group}`}`;
    case 'webhook':
      return `webhook "${op.name}" posting ${op.events.join(', ')} to ${op.url}`;
    case 'requiredApprovers':
      return `require ${op.count} approval${op.count === 1 ? '' : 's'} before merging`;
    case 'allTasksComplete':
      return 'require all tasks to be resolved before merging';
    case 'requiredBuilds':
      return `require green builds ${op.buildParentKeys.join(', ')} on ${op.refMatcher}`;
    case 'autoMerge':
      return `${op.enabled ? 'allow' : 'disallow'} auto-merge`;
    case 'autoDecline':
      return op.enabled
        ? `auto-decline pull requests inactive for ${op.inactivityWeeks} weeks`
        : 'turn auto-decline off';
    case 'defaultTask':
      return `default task "${op.description}" (${op.sourceMatcher} -> ${op.targetMatcher})`;
  }
}

function webhookBody(op: Extract<BulkOperationSpec, { type: 'webhook' }>) {
  return { name: op.name, url: op.url, events: op.events, active: op.active ?? true };
}
function requiredBuildsBody(op: Extract<BulkOperationSpec, { type: 'requiredBuilds' }>) {
  return {
    buildParentKeys: op.buildParentKeys,
    refMatcher: parseRefMatcher(op.refMatcher ?? 'any', 'refMatcher'),
  };
}
function defaultTaskBody(op: Extract<BulkOperationSpec, { type: 'defaultTask' }>) {
  return {
    description: op.description,
    sourceMatcher: parseRefMatcher(op.sourceMatcher ?? 'any', 'sourceMatcher'),
    targetMatcher: parseRefMatcher(op.targetMatcher ?? 'any', 'targetMatcher'),
  };
}

/** The call that makes the change, as the plan shows it. */
export function operationRequest(repository: string, op: BulkOperationSpec): BulkRequest {
  const scope = scopeOf(repository);
  const base = repoPath(scope.project, scope.slug);
  switch (op.type) {
    case 'repositoryPermission':
      return {
        method: 'PUT',
        path: `${base}/permissions/${op.user ? 'users' : 'groups'}`,
        query: { name: (op.user ?? op.group)!, permission: op.permission },
      };
    case 'webhook':
      return { method: 'POST', path: webhooksPath(scope), body: webhookBody(op) };
    case 'requiredApprovers':
      return {
        method: 'POST',
        path: `${base}/settings/pull-requests`,
        body: { requiredApprovers: { enabled: true, count: String(op.count) } },
      };
    case 'allTasksComplete':
      return {
        method: 'POST',
        path: `${base}/settings/pull-requests`,
        body: { requiredAllTasksComplete: true },
      };
    case 'requiredBuilds':
      return {
        method: 'POST',
        path: requiredBuildsPath(scope.project, scope.slug, 'new'),
        body: requiredBuildsBody(op),
      };
    case 'autoMerge':
      return { method: 'PUT', path: `${base}/settings/auto-merge`, body: { enabled: op.enabled ?? true } };
    case 'autoDecline':
      return {
        method: 'PUT',
        path: `${base}/settings/auto-decline`,
        body: { enabled: op.enabled ?? true, inactivityWeeks: op.inactivityWeeks ?? 4 },
      };
    case 'defaultTask':
      return { method: 'POST', path: defaultTasksPath(scope), body: defaultTaskBody(op) };
  }
}

/** Makes one operation true on one repository, reading first where a blind create could duplicate. */
export async function applyOperation(
  client: BitbucketClient,
  repository: string,
  op: BulkOperationSpec,
  logger: Logger,
): Promise<OperationResult> {
  const scope = scopeOf(repository);
  const request = operationRequest(repository, op);
  switch (op.type) {
    case 'webhook': {
      const { values } = await collectPages<RestWebhook>(client, webhooksPath(scope), {}, undefined);
      const existing = values.find((w) => w.name === op.name);
      if (!existing) {
        await client.request('POST', request.path, { body: request.body });
        return 'created';
      }
      const want = webhookBody(op);
      if (
        existing.url === want.url &&
        existing.active === want.active &&
        sameSet(existing.events ?? [], want.events)
      )
        return 'unchanged';
      if (existing.id === undefined)
        throw new RealmforgeError(
          'conflict',
          `webhook "${existing.name}" has no id in the server's answer; it cannot be updated`,
        );
      await client.request('PUT', webhooksPath(scope, existing.id), {
        body: {
          ...want,
          sslVerificationRequired: existing.sslVerificationRequired ?? true,
          configuration: existing.configuration ?? {},
        },
      });
      return 'updated';
    }
    case 'requiredBuilds': {
      const want = requiredBuildsBody(op);
      const { values } = await collectPages<RestRequiredBuilds>(
        client,
        requiredBuildsPath(scope.project, scope.slug),
        {},
        undefined,
      );
      const existing = values.find((c) => sameMatcher(c.refMatcher, want.refMatcher));
      if (!existing) {
        await client.request('POST', request.path, { body: want });
        return 'created';
      }
      if (sameSet(existing.buildParentKeys, want.buildParentKeys)) return 'unchanged';
      await client.request('PUT', requiredBuildsPath(scope.project, scope.slug, existing.id), { body: want });
      return 'updated';
    }
    case 'defaultTask': {
      const want = defaultTaskBody(op);
      const { values } = await collectPages<RestDefaultTask>(client, defaultTasksPath(scope), {}, undefined);
      const existing = values.find((t) => t.description === want.description);
      if (!existing) {
        await client.request('POST', request.path, { body: want });
        return 'created';
      }
      if (
        sameMatcher(existing.sourceMatcher, want.sourceMatcher) &&
        sameMatcher(existing.targetMatcher, want.targetMatcher)
      )
        return 'unchanged';
      await client.request('PUT', defaultTasksPath(scope, existing.id), { body: want });
      return 'updated';
    }
    case 'requiredApprovers':
    case 'allTasksComplete': {
      // postPrSettings (repo settings) writes required approvers in the document's object form and falls back
      // to the integer form servers that deviate want.
      const change =
        op.type === 'requiredApprovers'
          ? { requiredApprovers: op.count }
          : { requiredAllTasksComplete: true };
      await postPrSettings(client, request.path, change, toPrSettings({}, repository), logger);
      return 'updated';
    }
    default:
      await client.request(request.method, request.path, { query: request.query, body: request.body });
      return 'updated';
  }
}
