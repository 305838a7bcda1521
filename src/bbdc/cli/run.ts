import { describeError, exitCodeOf, RealmforgeError, UsageError } from '../../core/errors.ts';
import { stringifyJson } from '../../core/exact-json.ts';
import type { CommandDefinition, GlobalOptions } from '../command.ts';
import type { Deps } from '../deps.ts';
import { errorEnvelope } from '../output/envelope.ts';
import { type RegistryEntry, registry } from '../registry.ts';
import { readVersion, versionLine } from '../version.ts';
import { splitCommand } from './argv.ts';
import { type CommandInfo, describeCommand } from './command-info.ts';
import { globalFlags, resolveGlobals } from './global-flags.ts';
import { commandHelp, flagToken, groupHelp, topHelp } from './help.ts';
import { takeJsonFields } from './json-fields.ts';
import { parseFlags } from './parse-flags.ts';
import { didYouMean } from './suggest.ts';

type AnyCommand = CommandDefinition<never, never>;
/** Takes every argument: to count what argv gives a command. */
const anyArgs = { name: 'args', required: false, description: '', variadic: true };

const fallbackGlobals = (argv: string[]): GlobalOptions => ({
  ...resolveGlobals({}, {}),
  json: argv.includes('--json'),
  logLevel: argv.includes('debug') ? 'debug' : 'warn',
});

/** Runs one bbdc invocation: argv in, output written through deps, exit code returned. Never calls process.exit. */
export async function runCli(
  argv: string[],
  deps: Deps,
  entries: RegistryEntry[] = registry,
): Promise<number> {
  // Running a command needs only the names (the registry has them); help and "did you mean" read the generated
  // manifest (large JSON), loaded only then. A test's own registry is described by loading it.
  let described: CommandInfo[] | undefined;
  const describe = async (): Promise<CommandInfo[]> =>
    (described ??=
      entries === registry
        ? (await import('./manifest.ts')).commandInfos
        : (await Promise.all(entries.map((e) => e.load()))).map(describeCommand));
  const split = splitCommand(
    argv,
    entries.map((e) => e.name),
  );
  // After `--` the words belong to another program (git clone's own flags), so a --help there is not bbdc's.
  const own = split.rest.includes('--') ? split.rest.slice(0, split.rest.indexOf('--')) : split.rest;
  const wantsHelp = own.includes('--help') || own.includes('-h');
  // --jq prints jq's output, not an envelope: its errors are written for people, on stderr.
  const json = argv.some((a) => a === '--json' || a.startsWith('--json=')) && !argv.includes('--jq');
  let globals = fallbackGlobals(argv);
  let command: AnyCommand | undefined;
  const fail = (error: unknown) => {
    if (json) deps.stdout.write(`${stringifyJson(errorEnvelope(error, { command: command?.name }))}\n`);
    else if (error instanceof RealmforgeError || globals.logLevel === 'debug')
      deps.stderr.write(`error: ${describeError(error)}\n`);
    else
      deps.stderr.write(
        `error: ${(error as Error)?.message ?? String(error)} (unexpected; rerun with --log-level debug for details)\n`,
      );
    return exitCodeOf(error);
  };
  try {
    if (!split.command && !split.group) {
      const infos = await describe();
      if (split.words.length) {
        const tops = [...new Set(infos.map((c) => c.name.split(' ')[0]))];
        throw new UsageError(
          `unknown command "${split.words[0]}"${didYouMean(split.words[0], tops)}; run \`bbdc --help\` for the list`,
        );
      }
      if (split.rest.includes('--version')) {
        deps.stdout.write(`${await versionLine(deps.git)}\n`);
        return 0;
      }
      if (!wantsHelp && split.rest.length) {
        // Flags but no command: name an unknown flag (with a suggestion), else say a command is missing.
        const known = Object.entries(globalFlags).flatMap(([name, spec]) => [
          flagToken(name, spec),
          ...(spec.shortFlag ? [`-${spec.shortFlag}`] : []),
        ]);
        const flag = split.rest.find((t) => t.startsWith('-') && !known.includes(t.split('=')[0]));
        throw new UsageError(
          flag
            ? `unknown flag ${flag}${didYouMean(flag.split('=')[0], known)}; run \`bbdc --help\``
            : 'no command given; run `bbdc --help` for the list',
        );
      }
      deps.stdout.write(`${topHelp(infos, readVersion())}\n`);
      return 0;
    }
    if (split.group) {
      const infos = await describe();
      const depth = split.group.split(' ').length;
      if (split.words.length > depth) {
        // `bbdc pr lst`: a word after a group that names none of its commands or subgroups.
        const next = [
          ...new Set(
            infos
              .filter((c) => c.name.startsWith(`${split.group} `))
              .map((c) =>
                c.name
                  .split(' ')
                  .slice(0, depth + 1)
                  .join(' '),
              ),
          ),
        ];
        const typed = split.words.slice(0, depth + 1).join(' ');
        throw new UsageError(
          `unknown command "${typed}"${didYouMean(typed, next)}; run \`bbdc ${split.group} --help\` for its commands`,
        );
      }
      deps.stdout.write(`${groupHelp(split.group, infos)}\n`);
      return 0;
    }
    if (wantsHelp) {
      const infos = await describe();
      deps.stdout.write(`${commandHelp(infos.find((c) => c.name === split.command)!)}\n`);
      return 0;
    }
    command = await entries.find((e) => e.name === split.command)!.load();
    const dashes = command.passthrough ? split.rest.indexOf('--') : -1;
    const allFlags = { ...globalFlags, ...command.flags };
    const name = command.name;
    const { argv: flagArgs, fields } = takeJsonFields(
      dashes < 0 ? split.rest : split.rest.slice(0, dashes),
      command.args,
      (words) => parseFlags(words, allFlags, [anyArgs], name).args.length,
    );
    const parsed = parseFlags(flagArgs, allFlags, command.args, command.name);
    globals = { ...resolveGlobals(parsed.flags, deps.env), ...(fields && { jsonFields: fields }) };
    const passthrough = dashes < 0 ? [] : split.rest.slice(dashes + 1);
    const { execute } = await import('./execute.ts');
    return await execute(command, { ...parsed, passthrough }, globals, deps);
  } catch (error) {
    return fail(error);
  }
}
