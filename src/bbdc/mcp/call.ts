import { RealmforgeError, UsageError } from '../../core/errors.ts';
import { stringifyJson } from '../../core/exact-json.ts';
import { createCommandDeps } from '../cli/context.ts';
import type { GlobalOptions } from '../command.ts';
import type { Deps } from '../deps.ts';
import { errorEnvelope } from '../output/envelope.ts';
import { createLogger } from '../output/logger.ts';
import { materialize } from '../output/stream-json.ts';
import { createUi } from '../output/ui.ts';
import { type McpTool, scopeArgument } from './tools.ts';

/** The largest tool result, in characters; longer results are cut with a note saying how to narrow them. */
export const maxResultChars = 100_000;

/** An MCP tool result: text content holding JSON, and whether it is an error. */
export type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean };

/** Turns tool input into the command's parsed flags and arguments, as meow would have produced them. */
export function toolInput(tool: McpTool, input: Record<string, unknown>) {
  const { command } = tool;
  const known = new Set(Object.keys(tool.inputSchema.properties));
  const unknown = Object.keys(input).filter((k) => !known.has(k));
  if (unknown.length) throw new UsageError(`${tool.name} has no input ${unknown.join(', ')}`);
  const flags: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(command.flags)) {
    const value = input[name] ?? spec.default;
    if (value === undefined) continue;
    if (spec.isMultiple) flags[name] = (Array.isArray(value) ? value : [value]).map(String);
    else if (spec.type === 'boolean') flags[name] = value === true || value === 'true';
    else if (spec.type === 'number') flags[name] = Number(value);
    else flags[name] = String(value);
    if (spec.choices && !spec.choices.includes(String(flags[name]))) {
      throw new UsageError(
        `${tool.name}: ${name} "${flags[name]}" must be one of ${spec.choices.join(', ')}`,
      );
    }
  }
  const project = input.project === undefined ? undefined : String(input.project);
  const repository = input.repository === undefined ? undefined : String(input.repository);
  if (repository && !project) throw new UsageError(`${tool.name}: repository needs project as well`);
  const args: string[] = [];
  for (const a of command.args) {
    const scope = scopeArgument(command.name, a.name);
    const value =
      scope === 'repository'
        ? project && repository && `${project}/${repository}`
        : scope === 'project'
          ? project
          : input[a.name];
    if (value === undefined || value === '') {
      const needed = scope === 'repository' ? 'project and repository' : (scope ?? a.name);
      if (a.required) throw new UsageError(`${tool.name} needs ${needed}: ${a.description}`);
      break;
    }
    if (a.variadic && Array.isArray(value)) args.push(...value.map(String));
    else args.push(String(value));
  }
  return { flags, args, repo: project && repository ? `${project}/${repository}` : undefined };
}

function bounded(text: string): string {
  if (text.length <= maxResultChars) return text;
  return `${text.slice(0, maxResultChars)}\n[truncated: the result has ${text.length} characters, more than ${maxResultChars}; ask for less, e.g. with limit]`;
}

/** Runs one tool as its command would run with --json; errors come back as the --json error envelope. */
export async function callTool(
  tool: McpTool,
  input: Record<string, unknown>,
  base: { deps: Deps; globals: GlobalOptions },
): Promise<ToolResult> {
  const logger = createLogger({
    level: base.globals.logLevel,
    format: base.globals.logFormat,
    out: base.deps.stderr,
    clock: base.deps.clock,
  });
  let dispose = async () => {};
  try {
    const { flags, args, repo } = toolInput(tool, input);
    const dryRun = input.dryRun === true;
    const globals: GlobalOptions = { ...base.globals, json: true, dryRun, repo: repo ?? base.globals.repo };
    // stdout carries the MCP protocol: anything a command would print for people goes to stderr.
    const ui = createUi({
      stdout: base.deps.stderr,
      stderr: base.deps.stderr,
      tty: false,
      color: false,
      columns: 100,
      quiet: true,
      scrub: logger.scrub,
    });
    const deps: Deps = {
      ...base.deps,
      stdout: base.deps.stderr,
      stdinIsTTY: () => false,
      prompt: async () => {
        throw new UsageError(
          `${tool.name} would have to ask a question, which a tool cannot; pass every input`,
        );
      },
    };
    const built = await createCommandDeps(deps, globals, logger, ui, tool.command.effect === 'mutating');
    dispose = built.dispose;
    const explicit = globals.repo !== undefined || (deps.env.BBDC_PROJECT && deps.env.BBDC_REPO);
    const cd = {
      ...built.deps,
      async repo() {
        if (!explicit)
          throw new UsageError(`${tool.name} acts on one repository: pass project and repository`);
        return built.deps.repo();
      },
    };
    const options = tool.command.parse({ args, flags } as never);
    let data: unknown;
    if (dryRun) {
      if (!tool.command.plan) throw new UsageError(`${tool.name} has no dry-run plan`);
      data = await tool.command.plan(options, cd);
    } else {
      data = await materialize(await tool.command.run(options, cd));
    }
    return { content: [{ type: 'text', text: bounded(logger.scrub(stringifyJson(data))) }] };
  } catch (error) {
    if (error instanceof RealmforgeError) error.message = logger.scrub(error.message);
    const envelope = errorEnvelope(error, { command: tool.command.name });
    return { content: [{ type: 'text', text: logger.scrub(JSON.stringify(envelope.error)) }], isError: true };
  } finally {
    await dispose();
  }
}
