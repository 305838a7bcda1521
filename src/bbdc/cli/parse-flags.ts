import { UsageError } from '../../core/errors.ts';
import { type ArgSpec, argUsage, type FlagSpec } from '../command.ts';
import { kebab } from './help.ts';
import { didYouMean } from './suggest.ts';

const flagName = (name: string) => `--${kebab(name)}`;

/**
 * Parses argv (command words removed) against the given flags. Flags are kebab-case on the command line and
 * camelCase in the result; `--no-x` turns a boolean off; unknown flags, values given to booleans and string flags
 * without a value are UsageErrors naming the flag. The command line is read as node:util's parseArgs reads it
 * (`--flag value`, `--flag=value`, `-R value`, `-Rvalue`, grouped short flags, `--` ending the flags), here rather
 * than with parseArgs, whose first call is compiled and run at every start (the figures are in git history).
 */
export function parseFlags(
  argv: string[],
  flags: Record<string, FlagSpec>,
  args: ArgSpec[],
  commandName: string,
): { args: string[]; flags: Record<string, unknown> } {
  const byOption = new Map<string, string>();
  const byShort = new Map<string, string>();
  for (const [name, spec] of Object.entries(flags)) {
    byOption.set(kebab(name), name);
    if (spec.shortFlag) byShort.set(spec.shortFlag, kebab(name));
  }
  const specOf = (option: string) => {
    const name = byOption.get(option);
    return name === undefined ? undefined : flags[name];
  };
  const takesValue = (option: string) => (specOf(option)?.type ?? 'boolean') !== 'boolean';
  const result: Record<string, unknown> = {};
  const input: string[] = [];
  const help = `run \`bbdc ${commandName} --help\``;
  const rest = [...argv];
  for (let arg = rest.shift(); arg !== undefined; arg = rest.shift()) {
    if (arg === '--') {
      input.push(...rest);
      break;
    }
    if (arg.length < 2 || arg[0] !== '-') {
      input.push(arg);
      continue;
    }
    const long = arg[1] === '-';
    let option: string;
    let value: string | undefined;
    let inline = false;
    if (long) {
      // `--flag`, `--flag=value`; an `=` right after the dashes is part of the name, as parseArgs has it.
      const eq = arg.indexOf('=', 3);
      option = arg.slice(2, eq === -1 ? undefined : eq);
      if (eq !== -1) [value, inline] = [arg.slice(eq + 1), true];
      else if (takesValue(option) && rest.length) value = rest.shift();
    } else {
      option = byShort.get(arg[1]) ?? arg[1];
      if (arg.length === 2) {
        if (takesValue(option) && rest.length) value = rest.shift();
      } else if (takesValue(option)) {
        [value, inline] = [arg.slice(2), true]; // -RPROJ/api
      } else {
        rest.unshift(`-${arg.slice(2)}`); // a group: -ab is -a -b
      }
    }
    const typed = long ? `--${option}` : `-${arg[1]}`;
    const negated =
      long && value === undefined && option.startsWith('no-') && specOf(option.slice(3))?.type === 'boolean';
    const name = byOption.get(negated ? option.slice(3) : option);
    if (!name) {
      const known = [...byOption.keys()].map((k) => `--${k}`);
      throw new UsageError(
        `unknown flag ${typed} for bbdc ${commandName}${didYouMean(typed, known)}; ${help}`,
      );
    }
    const spec = flags[name];
    const shown = negated ? `--no-${kebab(name)}` : flagName(name);
    if (spec.type === 'boolean') {
      if (value !== undefined) throw new UsageError(`${shown} takes no value (got "${value}"); ${help}`);
      result[name] = !negated;
      continue;
    }
    // A flag-looking word after a string flag means its value was left out (`--title --json`); `-` and `-1` are values.
    if (value === undefined || value === '' || (!inline && /^-[^\d]/.test(value))) {
      throw new UsageError(`${flagName(name)} needs a value${spec.value ? ` (${spec.value})` : ''}; ${help}`);
    }
    let parsed: string | number = value;
    if (spec.type === 'number') {
      parsed = Number(value);
      if (!Number.isFinite(parsed)) throw new UsageError(`${flagName(name)} "${value}" must be a number`);
    }
    if (spec.choices) {
      // In any case (`--state OPEN`, as Bitbucket writes it, is `open`): no two choices differ only in case.
      const choice =
        spec.choices.find((c) => c === value) ??
        spec.choices.find((c) => c.toLowerCase() === value.toLowerCase());
      if (choice === undefined)
        throw new UsageError(`${flagName(name)} "${value}" must be one of ${spec.choices.join(', ')}`);
      parsed = choice;
    }
    result[name] = spec.isMultiple ? [...((result[name] as unknown[]) ?? []), parsed] : parsed;
  }
  for (const [name, spec] of Object.entries(flags)) {
    if (result[name] === undefined && spec.default !== undefined) result[name] = spec.default;
    if (result[name] === undefined && spec.isMultiple) result[name] = [];
  }
  const required = args.filter((a) => a.required);
  if (input.length < required.length) {
    throw new UsageError(
      `missing argument <${required[input.length].name}>; usage: bbdc ${commandName} ${args.map(argUsage).join(' ')}`,
    );
  }
  if (input.length > args.length && !args.at(-1)?.variadic) {
    throw new UsageError(`unexpected argument "${input[args.length]}" for bbdc ${commandName}; ${help}`);
  }
  return { args: input, flags: result };
}
