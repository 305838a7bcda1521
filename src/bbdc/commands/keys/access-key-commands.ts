// `repo ssh-key list|add|remove` and `project ssh-key list|add|remove`: access keys (deploy keys) of a scope,
// built once for both scopes.
import type { KeyRemovalOutput } from '../../../../generated/types/cli/output/key-removal.ts';
import type { SshKeyOutput } from '../../../../generated/types/cli/output/ssh-key.ts';
import type { SshKeyListOutput } from '../../../../generated/types/cli/output/ssh-key-list.ts';
import { UsageError } from '../../../core/errors.ts';
import { accessKeysPath, parseKeyId, type RestAccessKey, toSshKey } from '../../api/keys.ts';
import { collectPages } from '../../api/paging.ts';
import { scopedNeeds } from '../../api/permission-check.ts';
import { type Scope, scopeId } from '../../api/scope.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { normalizeProjectKey } from '../../config/remote-url.ts';
import { apply, planOf } from '../../output/change.ts';
import type { DescriptionSource } from '../pr/description-input.ts';
import { printKeys } from '../ssh-key/list.ts';
import { keyFlags, keySource, readKey } from './key-input.ts';

type Kind = 'repo' | 'project';
const projectArg = { name: 'project', required: true, description: 'Project key' };

async function scopeOf(
  kind: Kind,
  project: string | undefined,
  deps: CommandDeps,
): Promise<{ scope: Scope; host: Awaited<ReturnType<CommandDeps['host']>> }> {
  if (kind === 'project') return { scope: { type: 'project', project: project! }, host: await deps.host() };
  const repo = await deps.repo();
  return { scope: { type: 'repository', project: repo.project, slug: repo.slug }, host: repo.host };
}

const levels = (kind: Kind) =>
  kind === 'project' ? ['PROJECT_READ', 'PROJECT_WRITE'] : ['REPO_READ', 'REPO_WRITE'];

/** The three access-key commands of a scope. */
export function accessKeyCommands(kind: Kind) {
  const word = kind === 'project' ? 'project' : 'repository';
  const args = kind === 'project' ? [projectArg] : [];
  const project = (a: string[]) => (kind === 'project' ? normalizeProjectKey(String(a[0])) : undefined);
  const list = defineCommand<{ project?: string }, SshKeyListOutput>({
    name: `${kind} ssh-key list`,
    summary: `List the access keys (SSH keys with read or write access) of a ${word}`,
    args,
    flags: {},
    outputSchema: 'ssh-key-list',
    effect: 'safe',
    examples: [kind === 'project' ? 'bbdc project ssh-key list PROJ' : 'bbdc repo ssh-key list -R PROJ/api'],
    parse: ({ args: a }) => ({ project: project(a) }),
    async run(o, deps) {
      const { scope, host } = await scopeOf(kind, o.project, deps);
      const client = await deps.client(host);
      const { values } = await collectPages<RestAccessKey>(client, accessKeysPath(scope), {}, undefined);
      return { owner: scopeId(scope), keys: values.map((k) => toSshKey(k.key, k.permission)) };
    },
    human: printKeys,
  });
  type AddOptions = { project?: string; source: DescriptionSource; label?: string; permission: string };
  const prepareAdd = async (o: AddOptions, deps: CommandDeps) => {
    const text = await readKey(o.source, deps);
    const { scope, host } = await scopeOf(kind, o.project, deps);
    const client = await deps.client(host);
    const { values } = await collectPages<RestAccessKey>(client, accessKeysPath(scope), {}, undefined);
    const same = values.find(
      (k) => k.key.text.split(' ')[1] === text.split(' ')[1] && k.permission === o.permission,
    );
    return {
      same,
      change: {
        client,
        intent: `bbdc ${kind} ssh-key add --permission ${o.permission.split('_')[1].toLowerCase()}`,
        host: host.url,
        target: { type: 'access-key', id: scopeId(scope) },
        request: {
          method: 'POST',
          path: accessKeysPath(scope),
          body: { key: { text, ...(o.label && { label: o.label }) }, permission: o.permission },
        },
        description: `give an SSH key ${o.permission} on ${word} ${scopeId(scope)}`,
        predicted: same ? ('no-op' as const) : ('create' as const),
        reasons: same ? [`the key already has ${o.permission} as access key ${same.key.id}`] : [],
      },
    };
  };
  const add = defineCommand<AddOptions, SshKeyOutput>({
    name: `${kind} ssh-key add`,
    summary: `Give an SSH key read or write access to a ${word} (an access key)`,
    description: `Needs ${kind === 'project' ? 'PROJECT_ADMIN' : 'REPO_ADMIN'}.`,
    args,
    flags: {
      ...keyFlags,
      permission: {
        type: 'string',
        value: 'LEVEL',
        choices: ['read', 'write'],
        description: 'read (default) or write',
      },
    },
    outputSchema: 'ssh-key',
    effect: 'mutating',
    needs: scopedNeeds('REPO_ADMIN', 'changing access keys'),
    examples: [
      `bbdc ${kind} ssh-key add ${kind === 'project' ? 'PROJ ' : ''}--key-file deploy.pub --permission read`,
    ],
    parse: ({ args: a, flags }) => ({
      project: project(a),
      source: keySource(flags),
      label: flags.label as string | undefined,
      permission: levels(kind)[flags.permission === 'write' ? 1 : 0],
    }),
    plan: async (o, deps) => planOf((await prepareAdd(o, deps)).change),
    async run(o, deps) {
      const p = await prepareAdd(o, deps);
      const res = await apply<RestAccessKey>(p.change);
      const k = res?.data ?? p.same!;
      return { key: toSshKey(k.key, k.permission), added: res !== undefined };
    },
    human(d, ui) {
      ui.line(
        d.added
          ? `Added access key ${d.key.id} with ${d.key.permission}`
          : `The key already has ${d.key.permission} as access key ${d.key.id}`,
      );
    },
  });
  type RemoveOptions = { project?: string; id: number };
  const prepareRemove = async (o: RemoveOptions, deps: CommandDeps) => {
    const { scope, host } = await scopeOf(kind, o.project, deps);
    const client = await deps.client(host);
    const k = await client.get<RestAccessKey>(accessKeysPath(scope, o.id));
    return {
      scope,
      change: {
        client,
        intent: `bbdc ${kind} ssh-key remove ${o.id}`,
        host: host.url,
        target: { type: 'access-key', id: `${scopeId(scope)}/${o.id}` },
        request: { method: 'DELETE', path: accessKeysPath(scope, o.id) },
        description: `revoke access key ${o.id}${k.key.label ? ` (${k.key.label})` : ''} on ${word} ${scopeId(scope)}`,
        predicted: 'delete' as const,
        reasons: [`it has ${k.permission}`],
      },
    };
  };
  const remove = defineCommand<RemoveOptions, KeyRemovalOutput>({
    name: `${kind} ssh-key remove`,
    summary: `Revoke an access key of a ${word}`,
    args: [...args, { name: 'id', required: true, description: `Key id (see bbdc ${kind} ssh-key list)` }],
    flags: {},
    outputSchema: 'key-removal',
    effect: 'mutating',
    needs: scopedNeeds('REPO_ADMIN', 'changing access keys'),
    examples: [`bbdc ${kind} ssh-key remove ${kind === 'project' ? 'PROJ ' : ''}12`],
    parse: ({ args: a }) => {
      if (kind === 'project' && a.length < 2) throw new UsageError('give the project key and the key id');
      return { project: project(a), id: parseKeyId(a[kind === 'project' ? 1 : 0]) };
    },
    plan: async (o, deps) => planOf((await prepareRemove(o, deps)).change),
    async run(o, deps) {
      const p = await prepareRemove(o, deps);
      await apply(p.change);
      return { type: 'access-key', id: String(o.id), scope: scopeId(p.scope), removed: true };
    },
    human(d, ui) {
      ui.line(`Revoked access key ${d.id} on ${d.scope}`);
    },
  });
  return { list, add, remove };
}
