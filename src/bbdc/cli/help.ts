import { argUsage, type CommandDefinition, type FlagSpec } from '../command.ts';
import { groups } from '../registry.ts';
import { globalFlags } from './global-flags.ts';

type AnyCommand = CommandDefinition<never, never>;

/** `dryRun` -> `dry-run`, as flags are written on the command line. */
export function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** One help line per flag: `-R, --repo [HOST/]PROJECT/slug   Repository to act on`. */
export function flagLines(flags: Record<string, FlagSpec>): string[] {
  const rows = Object.entries(flags).map(([name, spec]) => {
    const negated = spec.type === 'boolean' && (name === 'color' || spec.default === true);
    const flag = negated ? `--no-${kebab(name)}` : `--${kebab(name)}`;
    const short = spec.shortFlag ? `-${spec.shortFlag}, ` : '    ';
    const value = spec.type === 'boolean' ? '' : ` ${spec.value ?? 'VALUE'}`;
    return [`${short}${flag}${value}`, spec.description];
  });
  const width = Math.max(0, ...rows.map((r) => r[0].length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}   ${right}`);
}

function commandList(commands: AnyCommand[]): string[] {
  const width = Math.max(...commands.map((c) => c.name.length));
  return commands.map((c) => `  ${c.name.padEnd(width)}   ${c.summary}`);
}

/** `bbdc --help`: every command with its summary, and the global flags. */
export function topHelp(commands: AnyCommand[], version: string): string {
  return [
    `bbdc ${version}: work with Bitbucket Data Center from the command line.`,
    '',
    'Usage: bbdc <group> <verb> [args] [flags]',
    '',
    'Commands:',
    ...commandList(commands),
    '',
    'Global flags:',
    ...flagLines(globalFlags),
    '',
    "Run `bbdc <command> --help` for a command's arguments and flags.",
    'Environment: BBDC_URL, BBDC_TOKEN, BBDC_USERNAME, BBDC_PROJECT, BBDC_REPO, BBDC_CONFIG_DIR, NO_COLOR.',
  ].join('\n');
}

/** `bbdc <group> --help`: the commands of one group. */
export function groupHelp(group: string, commands: AnyCommand[]): string {
  const members = commands.filter((c) => c.name.startsWith(`${group} `));
  return [
    `bbdc ${group}: ${groups[group] ?? ''}`.trimEnd(),
    '',
    `Usage: bbdc ${group} <verb> [args] [flags]`,
    '',
    'Commands:',
    ...commandList(members),
    '',
    'Run `bbdc --help` for the global flags.',
  ].join('\n');
}

/** `bbdc <command> --help`: usage, arguments, flags, effect and output schema. */
export function commandHelp(command: AnyCommand): string {
  const args = command.args.map(argUsage).join(' ');
  const width = Math.max(0, ...command.args.map((a) => a.name.length));
  const lines = [
    `bbdc ${command.name}: ${command.summary}`,
    ...(command.description ? ['', command.description] : []),
    '',
    `Usage: bbdc ${command.name}${args ? ` ${args}` : ''} [flags]${command.passthrough ? ` [-- <${command.passthrough}>]` : ''}`,
  ];
  if (command.args.length) {
    lines.push('', 'Arguments:', ...command.args.map((a) => `  ${a.name.padEnd(width)}   ${a.description}`));
  }
  if (Object.keys(command.flags).length) lines.push('', 'Flags:', ...flagLines(command.flags));
  lines.push('', 'Global flags:', ...flagLines(globalFlags));
  if (command.examples?.length) lines.push('', 'Examples:', ...command.examples.map((e) => `  ${e}`));
  const dry =
    command.effect === 'mutating'
      ? command.plan
        ? '; --dry-run shows a plan'
        : '; no --dry-run plan yet'
      : '';
  lines.push(
    '',
    `Effect: ${command.effect}${dry}. JSON output: schemas/cli/output/${command.outputSchema}.schema.json`,
  );
  return lines.join('\n');
}
