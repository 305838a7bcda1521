import { globalFlags } from '../cli/global-flags.ts';
import { flagToken } from '../cli/help.ts';
import { argUsage, type CommandDefinition } from '../command.ts';

type AnyCommand = CommandDefinition<never, never>;

/** The skill's name: the directory it is installed in and the `name` in its front matter. */
export const skillName = 'bbdc';

const description =
  'Work with Bitbucket Data Center from the command line with bbdc: repositories, pull requests, branches, ' +
  'permissions, webhooks, build status and bulk policy. Use when a task involves a Bitbucket Data Center ' +
  'server or a clone of one of its repositories.';

const workflows = `## How to use bbdc

- Always pass \`--json\` when you read the output: it prints \`{"version":"v2","data":...,"meta":{...}}\`, and
  errors as \`{"version":"v2","error":{"kind","message","exitCode"}}\`. The data of each command follows
  the schema \`bbdc <command> --help\` names (https://realmforge.dev/schemas/cli/output/<command>.schema.json).
- Preview every change first with \`--dry-run\`: it prints a plan (what, where, and why it would be refused) and
  changes nothing. Run the command without \`--dry-run\` only when the plan is what the user asked for.
- The server and repository come from the git remote of the current directory. Elsewhere, pass
  \`--host URL\` and \`-R PROJECT/slug\` (or set \`BBDC_URL\`, \`BBDC_PROJECT\`, \`BBDC_REPO\`).
- Authentication: \`bbdc auth status\` shows who you are; if it fails, ask the user to run
  \`bbdc auth login <host>\` themselves (it asks for a personal access token). Never print a token.
- Exit codes: 0 ok, 2 bad usage or input, 3 authentication or permission, 4 not found, 5 conflict,
  10 transient (retry later), 11 not implemented. Read the error message: it names the flag or field to fix.

`;

/** Workflow hints; each is shown only when every command it names exists, so none can point at a missing command. */
const workflowHints: { needs: string[]; text: string }[] = [
  { needs: ['repo list'], text: 'Find a repository: `bbdc repo list --project KEY --json`.' },
  {
    needs: ['pr list', 'pr view'],
    text: 'Review a pull request: `bbdc pr list --json`, then `bbdc pr view <id> --json`.',
  },
  {
    needs: ['pr mergeability', 'pr merge'],
    text: 'Merge: check `bbdc pr mergeability <id> --json` first, then `bbdc pr merge <id> --dry-run`.',
  },
  {
    needs: ['bulk plan', 'bulk apply', 'bulk status'],
    text:
      'Apply one policy to many repositories: write a policy file, run `bbdc bulk plan -f policy.yaml -o plan.json`, ' +
      'show the plan to the user, then `bbdc bulk apply --from-plan plan.json`. Resume a failed run with ' +
      '`bbdc bulk apply --resume <operation-id>`; `bbdc bulk status <operation-id>` shows progress.',
  },
  {
    needs: ['ai mcp serve'],
    text: 'Serve bbdc as tools to an agent: `bbdc ai mcp serve` (read-only tools; `--yolo` adds the ones that change things).',
  },
];

function usage(c: AnyCommand): string {
  const args = c.args.map(argUsage).join(' ');
  return `bbdc ${c.name}${args ? ` ${args}` : ''}`;
}

function reference(commands: AnyCommand[]): string[] {
  return commands.flatMap((c) => {
    const flags = Object.entries(c.flags).map(
      ([name, spec]) =>
        `\`${flagToken(name, spec)}${spec.type === 'boolean' ? '' : ` ${spec.value ?? 'VALUE'}`}\``,
    );
    const effect =
      c.effect === 'mutating'
        ? c.plan
          ? ' Changes things: preview with `--dry-run`.'
          : ' Changes things.'
        : '';
    return [`- \`${usage(c)}\`: ${c.summary}.${effect}${flags.length ? ` Flags: ${flags.join(', ')}.` : ''}`];
  });
}

/** Renders SKILL.md: front matter with name, description and version, the workflows, and a reference of every command. */
export function renderSkill(commands: AnyCommand[], version: string): string {
  const globals = Object.entries(globalFlags)
    .filter(([name]) => !['help', 'version'].includes(name))
    .map(([name, spec]) => `\`${flagToken(name, spec)}\``)
    .join(', ');
  return [
    '---',
    `name: ${skillName}`,
    `description: ${JSON.stringify(description)}`,
    'metadata:',
    `  version: "${version}"`,
    '  generator: bbdc ai skill',
    '---',
    '',
    `# bbdc ${version}`,
    '',
    'bbdc is a command-line client for Bitbucket Data Center, in the spirit of `gh`.',
    '',
    workflows.trimEnd(),
    '',
    '## Workflows',
    '',
    ...workflowHints
      .filter((w) => w.needs.every((n) => commands.some((c) => c.name === n)))
      .map((w) => `- ${w.text}`),
    '',
    '## Command reference',
    '',
    `Generated from bbdc ${version}'s command registry. Every command also accepts ${globals}.`,
    '',
    ...reference(commands),
    '',
  ].join('\n');
}
