import { describeError, exitCodeOf, RealmforgeError, UsageError } from '../../core/errors.ts';
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
import { buildCommandDeps } from './context.ts';
import { globalFlags, resolveGlobals } from './global-flags.ts';
import { commandHelp, groupHelp, topHelp } from './help.ts';
import { parseFlags } from './parse-flags.ts';

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
  const split = splitCommand(
    argv,
    entries.map((e) => e.name),
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
      if (split.words.length)
        throw new UsageError(`unknown command "${split.words.join(' ')}"; run \`bbdc --help\` for the list`);
      if (split.rest.includes('--version')) {
        deps.stdout.write(`bbdc ${readVersion()}\n`);
        return 0;
      }
      const all = await Promise.all(entries.map((e) => e.load()));
      (wantsHelp || split.rest.length === 0 ? deps.stdout : deps.stderr).write(
        `${topHelp(all, readVersion())}\n`,
      );
      return wantsHelp || split.rest.length === 0 ? 0 : 2;
    }
    if (split.group) {
      const all = await Promise.all(
        entries.filter((e) => e.name.startsWith(`${split.group} `)).map((e) => e.load()),
      );
      deps.stdout.write(`${groupHelp(split.group, all)}\n`);
      return 0;
    }
    command = await entries.find((e) => e.name === split.command)!.load();
    if (wantsHelp) {
      deps.stdout.write(`${commandHelp(command)}\n`);
      return 0;
    }
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
  const { deps: cd, dispose } = buildCommandDeps(deps, globals, logger, ui);
  const print = (data: unknown, dryRun: boolean) => {
    const meta = { command: command.name, ...(dryRun ? { dryRun: true } : {}) };
    deps.stdout.write(`${logger.scrub(JSON.stringify(dataEnvelope(data, meta)))}\n`);
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
    const data = await command.run(options, cd);
    if (globals.json) print(data, false);
    else command.human(data as never, ui);
    return command.exitCode?.(data as never) ?? 0;
  } catch (error) {
    if (error instanceof RealmforgeError) error.message = logger.scrub(error.message);
    throw error;
  } finally {
    if (kept && pager) {
      const text = kept.take();
      if (isLong(text, deps.rows)) await deps.page(pager, text);
      else deps.stdout.write(text);
    }
    await dispose();
  }
}
