// Runs one parsed command: options, a dry-run plan or the run itself, then --json (streamed) or human output.
import { RealmforgeError } from '../../core/errors.ts';
import type { CommandDefinition, GlobalOptions, ParsedInput } from '../command.ts';
import type { Deps } from '../deps.ts';
import { dataEnvelope } from '../output/envelope.ts';
import { createLogger } from '../output/logger.ts';
import { printPlan } from '../output/plan.ts';
import { bufferedWriter, materialize, writeJson } from '../output/stream-json.ts';
import { createUi } from '../output/ui.ts';

type AnyCommand = CommandDefinition<never, never>;

/** Runs `command` with parsed input and resolved globals; returns the exit code, throws what fails. */
export async function execute(
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
  const ui = createUi({
    stdout: deps.stdout,
    stderr: deps.stderr,
    tty: deps.stdoutIsTTY,
    color: globals.color,
    forceColor: globals.forceColor,
    columns: deps.columns,
    quiet: globals.json,
    scrub: logger.scrub,
  });
  // Loaded here, not at the top: help and usage errors never need the config, git or HTTP code.
  const { createCommandDeps } = await import('./context.ts');
  const mutating = command.effect === 'mutating';
  const { deps: cd, dispose } = await createCommandDeps(deps, globals, logger, ui, mutating);
  const print = async (data: unknown, dryRun: boolean) => {
    const meta = { command: command.name, ...(dryRun ? { dryRun: true } : {}) };
    // Streamed: a list still being fetched (LazyList) is written item by item, never held whole.
    const out = bufferedWriter(deps.stdout, logger.scrub);
    try {
      await writeJson(dataEnvelope(data, meta), out.write);
    } finally {
      // A failure while streaming leaves the line cut; the error envelope then follows on its own line.
      await out.write('\n');
      await out.flush();
    }
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
      if (globals.json) await print(plan, true);
      else printPlan(plan, ui);
      return 0;
    }
    const data = await command.run(options, cd);
    if (globals.json) await print(data, false);
    else command.human((await materialize(data)) as never, ui);
    return command.exitCode?.(data as never) ?? 0;
  } catch (error) {
    if (error instanceof RealmforgeError) error.message = logger.scrub(error.message);
    throw error;
  } finally {
    await dispose();
  }
}
