import { UsageError } from '../../core/errors.ts';
import { kebab } from '../cli/help.ts';
import type { CommandDefinition, FlagSpec } from '../command.ts';

type AnyCommand = CommandDefinition<never, never>;

/** SAFE tools only read; YOLO tools change the server and are served only with --yolo. */
export type Safety = 'SAFE' | 'YOLO';

/** A JSON Schema for one tool input property. */
type Property = { type: string; description: string; items?: { type: string }; enum?: string[] };

/** One MCP tool made from one registry command. */
export type McpTool = {
  name: string;
  command: AnyCommand;
  safety: Safety;
  description: string;
  inputSchema: {
    type: 'object';
    properties: Record<string, Property>;
    required: string[];
    additionalProperties: false;
  };
};

// Commands that make no sense as tools: they prompt, open a browser, manage bbdc's own login and files,
// write a clone into the server's working directory, or replace bbdc itself (update).
const notTools = [
  'auth login',
  'clone',
  'repo clone',
  'pr checkout',
  'auth logout',
  'auth server use',
  'auth setup-git',
  'auth git-credential',
  'auth alias ',
  'browse',
  'ai ',
  'completion ',
  'update',
];
const skipped = (name: string) => notTools.some((p) => name === p.trim() || name.startsWith(p));

/** The tool name of a command: `repo list` -> `repo_list`, `auth token-url` -> `auth_token_url`. */
export function toolName(commandName: string): string {
  return commandName.replace(/[ -]/g, '_');
}

function property(spec: FlagSpec): Property {
  const description = spec.description;
  if (spec.isMultiple) return { type: 'array', items: { type: 'string' }, description };
  if (spec.type === 'boolean') return { type: 'boolean', description };
  if (spec.type === 'number') return { type: 'number', description };
  return { type: 'string', description, ...(spec.choices && { enum: spec.choices }) };
}

/** The project and repository inputs every tool takes, so an agent never depends on the server's directory. */
export const contextInputs: Record<string, Property> = {
  project: { type: 'string', description: 'Project key of the repository to act on (e.g. PROJ, or ~user)' },
  repository: {
    type: 'string',
    description:
      'Slug of the repository to act on, with project (commands that act on one repository need both)',
  },
};

/**
 * One naming rule for scope inputs across every tool: `project` is a project key and `repository` a slug. A command
 * whose positional argument names the scope (`repo get PROJ/slug`, `project get KEY`, `project permissions show
 * PROJ`) takes it from those inputs, so a positional argument never shadows them.
 */
export function scopeArgument(commandName: string, argName: string): 'repository' | 'project' | undefined {
  if (argName === 'repository') return 'repository';
  if (argName === 'project') return 'project';
  if (argName === 'key' && commandName.startsWith('project ')) return 'project';
  return undefined;
}

/** Builds one tool per registry command that can run unattended; mutating commands are YOLO. */
export function toolsFromCommands(commands: AnyCommand[]): McpTool[] {
  return commands
    .filter((c) => !skipped(c.name))
    .map((c) => {
      const properties: Record<string, Property> = {};
      for (const [name, spec] of Object.entries(c.flags)) properties[name] = property(spec);
      for (const a of c.args)
        if (!scopeArgument(c.name, a.name))
          properties[a.name] = a.variadic
            ? { type: 'array', items: { type: 'string' }, description: a.description }
            : { type: 'string', description: a.description };
      for (const [name, p] of Object.entries(contextInputs)) properties[name] ??= p;
      const required = c.args
        .filter((a) => a.required)
        .flatMap((a) => {
          const scope = scopeArgument(c.name, a.name);
          return scope === 'repository' ? ['project', 'repository'] : [scope ?? a.name];
        });
      if (c.effect === 'mutating' && c.plan) {
        properties.dryRun = {
          type: 'boolean',
          description: 'Return the plan of the change instead of making it',
        };
      }
      const safety: Safety = c.effect === 'safe' ? 'SAFE' : 'YOLO';
      const flags = Object.keys(c.flags).map((f) => `--${kebab(f)}`);
      return {
        name: toolName(c.name),
        command: c,
        safety,
        description: `${c.summary} (\`bbdc ${c.name}\`${flags.length ? ` ${flags.join(' ')}` : ''}). Returns the command's --json data.${safety === 'YOLO' ? ' Changes the server.' : ''}`,
        inputSchema: {
          type: 'object',
          properties,
          required: [...new Set(required)],
          additionalProperties: false,
        },
      };
    });
}

/** Which tools to serve: --tools narrows, --exclude removes, and YOLO tools need --yolo. */
export type ToolSelection = { yolo: boolean; tools?: string[]; exclude?: string[] };

/** Parses a comma-separated list flag into tool names (`repo list` and `repo_list` both work). */
export function toolList(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const list = (Array.isArray(value) ? value : [value])
    .flatMap((v) => String(v).split(','))
    .map((v) => toolName(v.trim()))
    .filter(Boolean);
  return list.length ? list : undefined;
}

/** The tools the selection serves, in registry order; names that are no tool, or YOLO tools without --yolo, are UsageErrors. */
export function selectTools(all: McpTool[], selection: ToolSelection): McpTool[] {
  const names = new Set(all.map((t) => t.name));
  for (const [flag, list] of [
    ['--tools', selection.tools],
    ['--exclude', selection.exclude],
  ] as const) {
    const unknown = (list ?? []).filter((n) => !names.has(n));
    if (unknown.length) {
      throw new UsageError(
        `${flag}: no tool named ${unknown.join(', ')}; run \`bbdc ai mcp tools\` for the list`,
      );
    }
  }
  if (!selection.yolo) {
    const yolo = all.filter((t) => t.safety === 'YOLO' && selection.tools?.includes(t.name));
    if (yolo.length) {
      throw new UsageError(
        `--tools names ${yolo.map((t) => t.name).join(', ')}, which change the server (YOLO); add --yolo to serve them`,
      );
    }
  }
  return all.filter(
    (t) =>
      (!selection.tools || selection.tools.includes(t.name)) &&
      !selection.exclude?.includes(t.name) &&
      (selection.yolo || t.safety === 'SAFE'),
  );
}

/** The flags `ai mcp serve` and `ai mcp tools` share. */
export const selectionFlags: Record<string, FlagSpec> = {
  yolo: { type: 'boolean', description: 'Serve every tool, including those that change the server' },
  tools: { type: 'string', value: 'LIST', description: 'Serve only these tools (comma-separated names)' },
  exclude: { type: 'string', value: 'LIST', description: 'Do not serve these tools (comma-separated names)' },
};

/** Reads the selection flags. */
export function parseSelection(flags: Record<string, unknown>): ToolSelection {
  return { yolo: flags.yolo === true, tools: toolList(flags.tools), exclude: toolList(flags.exclude) };
}
