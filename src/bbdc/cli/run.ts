import { describeError, exitCodeOf, RealmforgeError, UsageError } from '../../core/errors.ts';
import { takeTimestampWarnings } from '../api/timestamps.ts';
import type { CommandDefinition, GlobalOptions, ParsedInput } from '../command.ts';
import type { Deps } from '../deps.ts';
import { dataEnvelope, errorEnvelope } from '../output/envelope.ts';
import { createLogger } from '../output/logger.ts';
import { bufferWriter, isLong, pagerCommand } from '../output/pager.ts';
import { printPlan } from '../output/plan.ts';
import { createUi } from '../output/ui.ts';
import { type RegistryEntry, registry } from '../registry.ts';
import { readVersion } from '../version.ts';
import { splitCommand } from './argv.ts';
import { type CommandInfo, describeCommand } from './command-info.ts';
import { globalFlags, resolveGlobals } from './global-flags.ts';
import { commandHelp, groupHelp, topHelp } from './help.ts';
import { commandInfos } from './manifest.ts';
import { parseFlags } from './parse-flags.ts';
import { didYouMean } from './suggest.ts';

type AnyCommand = CommandDefinition<never, never>;

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
  // The real registry is described by the generated manifest; a test's own registry is described by loading it.
  const infos: CommandInfo[] =
    entries === registry
      ? commandInfos
      : (await Promise.all(entries.map((e) => e.load()))).map(describeCommand);
  const split = splitCommand(
    argv,
    infos.map((c) => c.name),
  );
  // After `--` the words belong to another program (git clone's own flags), so a --help there is not bbdc's.
  const own = split.rest.includes('--') ? split.rest.slice(0, split.rest.indexOf('--')) : split.rest;
  const wantsHelp = own.includes('--help') || own.includes('-h');
  const json = argv.includes('--json');
  let globals = fallbackGlobals(argv);
  let command: AnyCommand | undefined;
  const fail = (error: unknown) => {
    if (json) deps.stdout.write(`${JSON.stringify(errorEnvelope(error, { command: command?.name }))}\n`);
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
      if (split.words.length) {
        const tops = [...new Set(infos.map((c) => c.name.split(' ')[0]))];
        throw new UsageError(
          `unknown command "${split.words[0]}"${didYouMean(split.words[0], tops)}; run \`bbdc --help\` for the list`,
        );
      }
      if (split.rest.includes('--version')) {
        deps.stdout.write(`bbdc ${readVersion()}\n`);
        return 0;
      }
      (wantsHelp || split.rest.length === 0 ? deps.stdout : deps.stderr).write(
        `${topHelp(infos, readVersion())}\n`,
      );
      return wantsHelp || split.rest.length === 0 ? 0 : 2;
    }
    if (split.group) {
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
      deps.stdout.write(`${commandHelp(infos.find((c) => c.name === split.command)!)}\n`);
      return 0;
    }
    command = await entries.find((e) => e.name === split.command)!.load();
    const dashes = command.passthrough ? split.rest.indexOf('--') : -1;
    const flagArgs = dashes < 0 ? split.rest : split.rest.slice(0, dashes);
    const parsed = parseFlags(flagArgs, { ...globalFlags, ...command.flags }, command.args, command.name);
    globals = resolveGlobals(parsed.flags, deps.env);
    const passthrough = dashes < 0 ? [] : split.rest.slice(dashes + 1);
    return await execute(command, { ...parsed, passthrough }, globals, deps);
  } catch (error) {
    return fail(error);
  }
}

async function execute(
  command: AnyCommand,
  parsed: ParsedInput,
  globals: GlobalOptions,
  deps: Deps,
): Promise<number> {
  const logger = createLogger({
    level: globals.logLevel,
    format: globals.logFormat,
    out: deps.stderr,
    clock: deps.clock,
  });
  // On a terminal with a pager configured, human output is kept and paged when it is longer than the screen.
  const pager = globals.json || !deps.stdoutIsTTY ? undefined : pagerCommand(deps.env, globals.pager);
  const kept = pager ? bufferWriter() : undefined;
  const ui = createUi({
    stdout: kept ?? deps.stdout,
    stderr: deps.stderr,
    tty: deps.stdoutIsTTY,
    color: globals.color,
    columns: deps.columns,
    quiet: globals.json,
    scrub: logger.scrub,
  });
  // Loaded here, not at the top: help and usage errors never need the config, git or HTTP code.
  const { buildCommandDeps } = await import('./context.ts');
  const { deps: cd, dispose, accepted } = buildCommandDeps(deps, globals, logger, ui);
  const print = (data: unknown, dryRun: boolean, warnings?: string[]) => {
    const meta = {
      command: command.name,
      ...(dryRun ? { dryRun: true } : {}),
      ...(warnings && { warnings }),
    };
    deps.stdout.write(`${logger.scrub(JSON.stringify(dataEnvelope(data, meta)))}\n`);
  };
  // The server accepted a change but bbdc could not read or print its answer: the change is reported as done
  // (exit 0) and the reading problem as a warning, never as a failure that invites running the command again.
  const madeButUnreadable = (error: unknown) => {
    const done = accepted.map((w) => `${w.method} ${w.path} answered ${w.status}`).join(', ');
    const warning = logger.scrub(
      `the change was made (${done}), but bbdc could not read the server's answer: ${(error as Error)?.message ?? String(error)}; read the result back to see it`,
    );
    deps.stderr.write(`warning: ${warning}\n`);
    if (globals.json) print(null, false, [warning]);
    return 0;
  };
  try {
    const options = command.parse(parsed as never);
    if (globals.dryRun && command.effect === 'mutating') {
      if (!command.plan) {
        throw new RealmforgeError(
          'not_implemented',
          `bbdc ${command.name} cannot preview changes yet, so --dry-run refuses to run it; nothing was changed`,
        );
      }
      const plan = await command.plan(options, cd);
      if (globals.json) print(plan, true);
      else printPlan(plan, ui);
      return 0;
    }
    takeTimestampWarnings();
    const data = await command.run(options, cd);
    const warnings = takeTimestampWarnings();
    for (const w of warnings) deps.stderr.write(`warning: ${w}\n`);
    if (globals.json) print(data, false, warnings.length ? warnings : undefined);
    else command.human(data as never, ui);
    return command.exitCode?.(data as never) ?? 0;
  } catch (error) {
    if (!(error instanceof RealmforgeError) && accepted.length) return madeButUnreadable(error);
    if (!(error instanceof RealmforgeError)) throw error;
    // A later step failed after earlier writes succeeded: say what is already done, so nobody assumes nothing is.
    const done = accepted.map(
      (w) => `already done before this error: ${w.method} ${w.path} (answered ${w.status})`,
    );
    throw new RealmforgeError(error.kind, logger.scrub(error.message), {
      cause: error,
      details: [...error.details, ...done],
    });
  } finally {
    if (kept && pager) {
      const text = kept.take();
      if (isLong(text, deps.rows)) await deps.page(pager, text);
      else deps.stdout.write(text);
    }
    await dispose();
  }
}
