// Runs one parsed command: options, a dry-run plan or the run itself, then --json (streamed) or human output.
import { exitCodeFor, exitCodeOf, RealmforgeError } from '../../core/errors.ts';
import { stringifyJson } from '../../core/exact-json.ts';
import { checkNeeds } from '../api/permission-check.ts';
import { takeTimestampWarnings } from '../api/timestamps.ts';
import type { CommandDefinition, GlobalOptions, ParsedInput } from '../command.ts';
import type { Deps } from '../deps.ts';
import { dataEnvelope, partialEnvelopeEnd } from '../output/envelope.ts';
import { checkJq, runJq } from '../output/jq.ts';
import { createLogger, type Logger } from '../output/logger.ts';
import { bufferWriter, isLong, pagerCommand } from '../output/pager.ts';
import { printPlan } from '../output/plan.ts';
import { printHuman } from '../output/stream-human.ts';
import { bufferedWriter, materialize, writeJson } from '../output/stream-json.ts';
import { createUi } from '../output/ui.ts';
import { kebab } from './help.ts';
import { selectFields } from './json-fields.ts';

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
  // On a terminal with a pager configured, human output is kept and paged when it is longer than the screen.
  const pager = globals.json || !deps.stdoutIsTTY ? undefined : pagerCommand(deps.env, globals.pager);
  const kept = pager ? bufferWriter() : undefined;
  const ui = createUi({
    stdout: kept ?? deps.stdout,
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
  const { deps: cd, dispose, accepted } = await createCommandDeps(deps, globals, logger, ui, mutating);
  // Set when a streamed --json list failed after output began: the envelope is still open on stdout.
  let openEnvelope:
    | { open: string[]; write(chunk: string): Promise<void>; flush(): Promise<void> }
    | undefined;
  const print = async (data: unknown, dryRun: boolean, warnings?: string[]) => {
    const meta = {
      command: command.name,
      ...(dryRun ? { dryRun: true } : {}),
      ...(warnings && { warnings }),
    };
    const out = bufferedWriter(deps.stdout, logger.scrub);
    if (globals.jsonFields || globals.jq) {
      // Fields are picked from, and jq reads, the whole data: collected first, then written in one piece.
      const whole = await materialize(data);
      const envelope = dataEnvelope(
        globals.jsonFields ? selectFields(whole, globals.jsonFields) : whole,
        meta,
      );
      await out.write(globals.jq ? await runJq(envelope, globals.jq) : `${stringifyJson(envelope)}\n`);
      return out.flush();
    }
    // Streamed: a list still being fetched (LazyList) is written item by item, never held whole.
    const open: string[] = [];
    try {
      await writeJson(dataEnvelope(data, meta), out.write, open);
    } catch (error) {
      if (open.length) openEnvelope = { open, ...out };
      throw error;
    }
    await out.write('\n');
    await out.flush();
  };
  // A list that failed while it streamed ends as one envelope: the items written so far as data, then the error.
  const endPartial = async (error: unknown) => {
    const { open, write, flush } = openEnvelope!;
    await write(`${open.slice(1).reverse().join('')}${partialEnvelopeEnd(error, command.name)}\n`);
    await flush();
    return exitCodeOf(error);
  };
  // The server accepted a change but bbdc could not read or print its answer: the change is reported as done
  // (exit 0) and the reading problem as a warning, never as a failure that invites running the command again.
  const madeButUnreadable = async (error: unknown) => {
    const done = accepted.map((w) => `${w.method} ${w.path} answered ${w.status}`).join(', ');
    const warning = logger.scrub(
      `the change was made (${done}), but bbdc could not read the server's answer: ${(error as Error)?.message ?? String(error)}; read the result back to see it`,
    );
    deps.stderr.write(`warning: ${warning}\n`);
    if (globals.json) await print(null, false, [warning]);
    return 0;
  };
  warnSecretsInArgv(command, parsed, deps, logger);
  try {
    const options = command.parse(parsed as never);
    if (globals.jq) await checkJq(globals.jq);
    if (globals.dryRun && command.effect === 'mutating') {
      if (!command.plan) {
        throw new RealmforgeError(
          'not_implemented',
          `bbdc ${command.name} cannot preview changes yet, so --dry-run refuses to run it; nothing was changed`,
        );
      }
      if (command.needs) await checkNeeds(command.needs as never, options, cd as never);
      const plan = await command.plan(options, cd);
      if (globals.json) await print(plan, true);
      else printPlan(plan, ui);
      // A plan the real run would refuse is no success: the exit code is the one that run would end with.
      return plan.predictedAction === 'conflict' ? exitCodeFor('conflict') : 0;
    }
    takeTimestampWarnings();
    const data = await command.run(options, cd);
    const warnings = takeTimestampWarnings();
    for (const w of warnings) deps.stderr.write(`warning: ${w}\n`);
    if (globals.json) await print(data, false, warnings.length ? warnings : undefined);
    // A list still arriving is printed a window at a time where the command's human output allows it.
    else if (command.humanStreams) await printHuman(data as never, command.human, ui);
    else command.human((await materialize(data)) as never, ui);
    return command.exitCode?.(data as never) ?? 0;
  } catch (error) {
    if (!(error instanceof RealmforgeError) && accepted.length && !openEnvelope)
      return await madeButUnreadable(error);
    if (!(error instanceof RealmforgeError)) {
      if (openEnvelope) return await endPartial(error);
      throw error;
    }
    // A later step failed after earlier writes succeeded: say what is already done, so nobody assumes nothing is.
    const done = accepted.map(
      (w) => `already done before this error: ${w.method} ${w.path} (answered ${w.status})`,
    );
    const final = new RealmforgeError(error.kind, logger.scrub(error.message), {
      cause: error,
      details: [...error.details, ...done],
    });
    if (openEnvelope) return await endPartial(final);
    throw final;
  } finally {
    if (kept && pager) {
      const text = kept.take();
      if (isLong(text, deps.rows)) await deps.page(pager, text);
      else deps.stdout.write(text);
    }
    await dispose();
  }
}

/** A secret given as a flag's value sits in argv, where ps and shell history see it: said once, with the advice. */
function warnSecretsInArgv(command: AnyCommand, parsed: ParsedInput, deps: Deps, logger: Logger) {
  for (const [name, spec] of Object.entries(command.flags)) {
    const value = parsed.flags[name];
    if (!spec.secret || typeof value !== 'string') continue;
    logger.redact(value);
    deps.stderr.write(
      `warning: --${kebab(name)} puts the secret in the command line, where ps and your shell history see it; ${spec.secret}\n`,
    );
  }
}
