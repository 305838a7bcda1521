import { argUsage, type FlagSpec } from '../command.ts';
import { groups, helpSections } from '../registry.ts';
import type { CommandInfo } from './command-info.ts';
import { globalFlags } from './global-flags.ts';

/** `dryRun` -> `dry-run`, as flags are written on the command line. */
export function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** The flag as written on the command line: `--no-color` for a boolean that is on unless turned off. */
export function flagToken(name: string, spec: FlagSpec): string {
  return spec.type === 'boolean' && spec.default === true ? `--no-${kebab(name)}` : `--${kebab(name)}`;
}

/** One help line per flag: `-R, --repo [HOST/]PROJECT/slug   Repository to act on`. */
export function flagLines(flags: Record<string, FlagSpec>): string[] {
  const rows = Object.entries(flags).map(([name, spec]) => {
    const flag = flagToken(name, spec);
    const short = spec.shortFlag ? `-${spec.shortFlag}, ` : '    ';
    const value = spec.type === 'boolean' ? '' : ` ${spec.value ?? 'VALUE'}`;
    return [`${short}${flag}${value}`, spec.description];
  });
  return table(rows);
}

function table(rows: string[][]): string[] {
  const width = Math.max(0, ...rows.map((r) => r[0].length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}   ${right}`.trimEnd());
}

/** The section a top-level word belongs to; words no section lists are "Additional commands". */
export function sectionOf(word: string): string {
  return helpSections.find(([, words]) => words.includes(word))?.[0] ?? 'Additional commands';
}

/** `bbdc --help`: the top-level groups and commands by section (as gh does), and the global flags. */
export function topHelp(commands: CommandInfo[], version: string): string {
  const tops = [...new Set(commands.map((c) => c.name.split(' ')[0]))];
  const summary = (word: string) => commands.find((c) => c.name === word)?.summary ?? groups[word] ?? '';
  const order = [...helpSections.map(([title]) => title), 'Additional commands'];
  const lines = [
    `bbdc ${version}: work with Bitbucket Data Center from the command line.`,
    '',
    'Usage: bbdc <command> <subcommand> [args] [flags]',
  ];
  for (const title of new Set(order)) {
    const words = tops.filter((w) => sectionOf(w) === title);
    if (!words.length) continue;
    lines.push('', `${title}:`, ...table(words.map((w) => [`${w}:`, summary(w)])));
  }
  lines.push(
    '',
    'Global flags:',
    ...flagLines(globalFlags),
    '',
    'Run `bbdc <command> --help` for its subcommands, `bbdc <command> <subcommand> --help` for its flags.',
    'Environment: BBDC_URL, BBDC_TOKEN, BBDC_USERNAME, BBDC_PROJECT, BBDC_REPO, BBDC_CONFIG_DIR, NO_COLOR,',
    'FORCE_COLOR, HTTPS_PROXY, HTTP_PROXY, NO_PROXY.',
    `Full reference: ${referenceUrl}`,
  );
  return lines.join('\n');
}

/** The command reference as published with the project: an installed bbdc has no docs/ beside it. */
export const referenceUrl = 'https://github.com/realmforge/realmforge/blob/main/docs/commands.md';

/** A command's output schema by its `$id`, the name it is published under. */
export const schemaUrl = (name: string) => `https://realmforge.dev/schemas/cli/output/${name}.schema.json`;

/** `bbdc <group> --help`: the commands of one group, subgroups under their own heading. */
export function groupHelp(group: string, commands: CommandInfo[]): string {
  const members = commands.filter((c) => c.name.startsWith(`${group} `));
  const depth = group.split(' ').length;
  const sub = (c: CommandInfo) =>
    c.name
      .split(' ')
      .slice(0, depth + 1)
      .join(' ');
  const direct = members.filter((c) => c.name.split(' ').length === depth + 1);
  const nested = [...new Set(members.filter((c) => !direct.includes(c)).map(sub))];
  const lines = [
    `bbdc ${group}: ${groups[group] ?? ''}`.trimEnd(),
    '',
    `Usage: bbdc ${group} <subcommand> [args] [flags]`,
  ];
  if (direct.length) lines.push('', 'Commands:', ...table(direct.map((c) => [c.name, c.summary])));
  for (const n of nested) {
    const inner = members.filter((c) => c.name.startsWith(`${n} `));
    lines.push('', `${groups[n] ?? n}:`, ...table(inner.map((c) => [c.name, c.summary])));
  }
  lines.push('', 'Run `bbdc --help` for the global flags.');
  return lines.join('\n');
}

/** `bbdc <command> --help`: usage, arguments, flags, effect and output schema. */
export function commandHelp(command: CommandInfo): string {
  const args = command.args.map(argUsage).join(' ');
  const lines = [
    `bbdc ${command.name}: ${command.summary}`,
    ...(command.description ? ['', command.description] : []),
    '',
    `Usage: bbdc ${command.name}${args ? ` ${args}` : ''} [flags]${command.passthrough ? ` [-- <${command.passthrough}>]` : ''}`,
  ];
  if (command.args.length) {
    lines.push('', 'Arguments:', ...table(command.args.map((a) => [a.name, a.description])));
  }
  if (Object.keys(command.flags).length) lines.push('', 'Flags:', ...flagLines(command.flags));
  lines.push('', 'Global flags:', ...flagLines(globalFlags));
  if (command.examples?.length) lines.push('', 'Examples:', ...command.examples.map((e) => `  ${e}`));
  const dry =
    command.effect === 'mutating'
      ? command.hasPlan
        ? '; --dry-run shows a plan'
        : '; no --dry-run plan yet'
      : '';
  lines.push(
    '',
    `Effect: ${command.effect}${dry}.`,
    `JSON output: data as the ${command.outputSchema} schema (${schemaUrl(command.outputSchema)}).`,
    `Reference: ${referenceUrl}#bbdc-${command.name.replaceAll(' ', '-')}`,
  );
  return lines.join('\n');
}
