// `repo default-task ...` and `project default-task ...`: tasks added to every new pull request whose branches
// match, built once for both scopes (/rest/default-tasks/latest).
import type { DefaultTaskOutput } from '../../../../generated/types/cli/output/default-task.ts';
import type { DefaultTaskListOutput } from '../../../../generated/types/cli/output/default-task-list.ts';
import { UsageError } from '../../../core/errors.ts';
import { collectPages } from '../../api/paging.ts';
import { scopedNeeds } from '../../api/permission-check.ts';
import {
  formatRefMatcher,
  parseRefMatcher,
  type RestRefMatcher,
  refMatcherSyntax,
} from '../../api/ref-matcher.ts';
import { pluginScopePath, type Scope, scopeId } from '../../api/scope.ts';
import { scopeClient } from '../../cli/scope.ts';
import { type CommandDeps, defineCommand, type FlagSpec } from '../../command.ts';
import { normalizeProjectKey } from '../../config/remote-url.ts';
import { apply, type Change, planOf } from '../../output/change.ts';
import type { Ui } from '../../output/ui.ts';

type Kind = 'repo' | 'project';
type RestTask = {
  id: number;
  description: string;
  sourceMatcher?: RestRefMatcher;
  targetMatcher?: RestRefMatcher;
};

function tasksPath(scope: Scope, id?: number): string {
  const base = `${pluginScopePath('default-tasks', scope)}/tasks`;
  return id === undefined ? base : `${base}/${id}`;
}

const toTask = (t: RestTask) => ({
  id: t.id,
  description: t.description,
  source: formatRefMatcher(t.sourceMatcher),
  target: formatRefMatcher(t.targetMatcher),
});

const taskFlags: Record<string, FlagSpec> = {
  description: { type: 'string', shortFlag: 'd', value: 'TEXT', description: 'The task text' },
  source: {
    type: 'string',
    value: 'MATCHER',
    description: `Source branches (default any). ${refMatcherSyntax}`,
  },
  target: { type: 'string', value: 'MATCHER', description: 'Target branches (default any)' },
};

function print(d: DefaultTaskListOutput, ui: Ui) {
  if (!d.tasks.length) ui.notice(`No default tasks on ${d.scope}.`);
  ui.table(
    ['id', 'source', 'target', 'task'],
    d.tasks.map((t) => [String(t.id), t.source, t.target, t.description]),
  );
}

/** The four commands of a scope. */
export function defaultTaskCommands(kind: Kind) {
  const args = kind === 'project' ? [{ name: 'project', required: true, description: 'Project key' }] : [];
  const idArg = { name: 'id', required: true, description: `Task id (see bbdc ${kind} default-task list)` };
  const project = (a: string[]) => (kind === 'project' ? normalizeProjectKey(String(a[0])) : undefined);
  const taskId = (a: string[]) => {
    const v = a[kind === 'project' ? 1 : 0];
    if (!/^\d+$/.test(String(v ?? '')))
      throw new UsageError(`task id "${v}" must be a number (see bbdc ${kind} default-task list)`);
    return Number(v);
  };
  const list = defineCommand<{ project?: string }, DefaultTaskListOutput>({
    name: `${kind} default-task list`,
    summary: `List the default tasks of a ${kind === 'repo' ? 'repository' : 'project'}`,
    args,
    flags: {},
    outputSchema: 'default-task-list',
    effect: 'safe',
    examples: [
      kind === 'project' ? 'bbdc project default-task list PROJ' : 'bbdc repo default-task list -R PROJ/api',
    ],
    parse: ({ args: a }) => ({ project: project(a) }),
    async run(o, deps) {
      const s = await scopeClient(deps, o.project);
      const { values } = await collectPages<RestTask>(s.client, tasksPath(s.scope), {}, undefined);
      return { scope: scopeId(s.scope), tasks: values.map(toTask) };
    },
    human: print,
  });
  type ChangeOptions = { project?: string; id?: number; body?: Record<string, unknown> };
  const prepare = async (
    verb: 'add' | 'update' | 'delete',
    o: ChangeOptions,
    deps: CommandDeps,
  ): Promise<{ change: Change; scope: string; current?: RestTask }> => {
    const s = await scopeClient(deps, o.project);
    const { values } = await collectPages<RestTask>(s.client, tasksPath(s.scope), {}, undefined);
    const current = o.id === undefined ? undefined : values.find((t) => t.id === o.id);
    const missing = o.id !== undefined && !current ? [`no default task ${o.id} on ${scopeId(s.scope)}`] : [];
    const same =
      verb === 'add' &&
      values.some(
        (t) =>
          t.description === o.body!.description &&
          formatRefMatcher(t.sourceMatcher) === formatRefMatcher(o.body!.sourceMatcher as RestRefMatcher) &&
          formatRefMatcher(t.targetMatcher) === formatRefMatcher(o.body!.targetMatcher as RestRefMatcher),
      );
    return {
      scope: scopeId(s.scope),
      current,
      change: {
        client: s.client,
        intent: `bbdc ${kind} default-task ${verb}${o.id ? ` ${o.id}` : ''}`,
        host: s.host.url,
        target: { type: 'default-task', id: `${scopeId(s.scope)}${o.id ? `/${o.id}` : ''}` },
        request:
          verb === 'add'
            ? { method: 'POST', path: tasksPath(s.scope), body: o.body }
            : verb === 'update'
              ? // PUT replaces the task: what is not given is sent as it is now.
                {
                  method: 'PUT',
                  path: tasksPath(s.scope, o.id),
                  body: {
                    description: current?.description,
                    sourceMatcher: current?.sourceMatcher,
                    targetMatcher: current?.targetMatcher,
                    ...o.body,
                  },
                }
              : { method: 'DELETE', path: tasksPath(s.scope, o.id) },
        description: `${verb} a default task on ${scopeId(s.scope)}`,
        predicted: same ? 'no-op' : verb === 'add' ? 'create' : verb === 'update' ? 'update' : 'delete',
        reasons: same
          ? ['the same task already exists']
          : current
            ? [`task ${current.id}: ${current.description}`]
            : [],
        blocking: missing,
      },
    };
  };
  const bodyOf = (flags: Record<string, unknown>, needDescription: boolean) => {
    if (needDescription && !flags.description)
      throw new UsageError('--description TEXT is required: the task text');
    return {
      ...(flags.description !== undefined && { description: String(flags.description) }),
      ...((flags.source !== undefined || needDescription) && {
        sourceMatcher: parseRefMatcher(String(flags.source ?? 'any'), '--source'),
      }),
      ...((flags.target !== undefined || needDescription) && {
        targetMatcher: parseRefMatcher(String(flags.target ?? 'any'), '--target'),
      }),
    };
  };
  const result = (verb: string) => (d: DefaultTaskOutput, ui: Ui) =>
    ui.line(`${verb} default task ${d.task.id} on ${d.scope}: ${d.task.description}`);
  const add = defineCommand<ChangeOptions, DefaultTaskOutput>({
    name: `${kind} default-task add`,
    summary: 'Add a task to every new pull request whose branches match',
    args,
    flags: taskFlags,
    outputSchema: 'default-task',
    effect: 'mutating',
    needs: scopedNeeds('REPO_ADMIN', 'changing default tasks'),
    examples: [
      `bbdc ${kind} default-task add ${kind === 'project' ? 'PROJ ' : ''}--description "Update the changelog" --target main`,
    ],
    parse: ({ args: a, flags }) => ({ project: project(a), body: bodyOf(flags, true) }),
    plan: async (o, deps) => planOf((await prepare('add', o, deps)).change),
    async run(o, deps) {
      const p = await prepare('add', o, deps);
      const res = await apply<RestTask>(p.change);
      return {
        scope: p.scope,
        task: toTask(res?.data ?? ({ id: 0, ...o.body } as RestTask)),
        changed: res !== undefined,
      };
    },
    human: result('Added'),
  });
  const update = defineCommand<ChangeOptions, DefaultTaskOutput>({
    name: `${kind} default-task update`,
    summary: 'Change a default task',
    args: [...args, idArg],
    flags: taskFlags,
    outputSchema: 'default-task',
    effect: 'mutating',
    needs: scopedNeeds('REPO_ADMIN', 'changing default tasks'),
    examples: [
      `bbdc ${kind} default-task update ${kind === 'project' ? 'PROJ ' : ''}3 --description "Update CHANGELOG.md"`,
    ],
    parse: ({ args: a, flags }) => {
      const body = bodyOf(flags, false);
      if (!Object.keys(body).length)
        throw new UsageError('nothing to change: pass --description, --source or --target');
      return { project: project(a), id: taskId(a), body };
    },
    plan: async (o, deps) => planOf((await prepare('update', o, deps)).change),
    async run(o, deps) {
      const p = await prepare('update', o, deps);
      const res = await apply<RestTask>(p.change);
      return { scope: p.scope, task: toTask(res!.data), changed: true };
    },
    human: result('Updated'),
  });
  const remove = defineCommand<ChangeOptions, DefaultTaskOutput>({
    name: `${kind} default-task delete`,
    summary: 'Delete a default task',
    args: [...args, idArg],
    flags: {},
    outputSchema: 'default-task',
    effect: 'mutating',
    needs: scopedNeeds('REPO_ADMIN', 'changing default tasks'),
    examples: [`bbdc ${kind} default-task delete ${kind === 'project' ? 'PROJ ' : ''}3`],
    parse: ({ args: a }) => ({ project: project(a), id: taskId(a) }),
    plan: async (o, deps) => planOf((await prepare('delete', o, deps)).change),
    async run(o, deps) {
      const p = await prepare('delete', o, deps);
      await apply(p.change);
      return { scope: p.scope, task: toTask(p.current!), changed: true };
    },
    human: result('Deleted'),
  });
  return { list, add, update, remove };
}
