import { UsageError } from '../../core/errors.ts';
import { type ArgSpec, argUsage, type FlagSpec } from '../command.ts';
import { kebab } from './help.ts';
import { didYouMean } from './suggest.ts';

type Option = { type: 'string' | 'boolean'; short?: string; multiple?: boolean };

const flagName = (name: string) => `--${kebab(name)}`;

/**
 * Parses argv (command words removed) against the given flags with node:util's parseArgs, which is part of Node
 * (meow cost 30-250 ms to import and set up on every run). Flags are kebab-case on the command line and camelCase
 * in the result; `--no-x` turns a boolean off; unknown flags, values given to booleans and string flags without a
 * value are UsageErrors naming the flag.
 */
export function parseFlags(
  argv: string[],
  flags: Record<string, FlagSpec>,
  args: ArgSpec[],
  commandName: string,
): { args: string[]; flags: Record<string, unknown> } {
  const options: Record<string, Option> = {};
  const byOption = new Map<string, string>();
  for (const [name, spec] of Object.entries(flags)) {
    const option: Option = { type: spec.type === 'boolean' ? 'boolean' : 'string' };
    if (spec.shortFlag) option.short = spec.shortFlag;
    if (spec.isMultiple) option.multiple = true;
    options[kebab(name)] = option;
    byOption.set(kebab(name), name);
  }
  // Not an ES import: importing node:util builds a facade that reads every export (3 ms, worker_threads included).
  const { tokens } = process.getBuiltinModule('node:util').parseArgs({
    args: argv,
    options,
    strict: false,
    allowPositionals: true,
    allowNegative: true,
    tokens: true,
  });
  const result: Record<string, unknown> = {};
  const input: string[] = [];
  const help = `run \`bbdc ${commandName} --help\``;
  for (const token of tokens) {
    if (token.kind === 'positional') input.push(token.value);
    if (token.kind !== 'option') continue;
    // parseArgs names `--no-color` "color" (allowNegative); the raw name tells the two apart.
    const negated = token.rawName === `--no-${token.name}` && options[token.name]?.type === 'boolean';
    const name = byOption.get(token.name);
    if (!name) {
      const known = [...byOption.keys()].map((k) => `--${k}`);
      const typed = token.rawName;
      throw new UsageError(
        `unknown flag ${typed} for bbdc ${commandName}${didYouMean(typed, known)}; ${help}`,
      );
    }
    const spec = flags[name];
    const shown = negated ? `--no-${kebab(name)}` : flagName(name);
    if (spec.type === 'boolean') {
      if (token.value !== undefined)
        throw new UsageError(`${shown} takes no value (got "${token.value}"); ${help}`);
      result[name] = !negated;
      continue;
    }
    const value = token.value;
    // A flag-looking word after a string flag means its value was left out (`--title --json`); `-` and `-1` are values.
    if (value === undefined || value === '' || (!token.inlineValue && /^-[^\d]/.test(value))) {
      throw new UsageError(`${flagName(name)} needs a value${spec.value ? ` (${spec.value})` : ''}; ${help}`);
    }
    let parsed: string | number = value;
    if (spec.type === 'number') {
      parsed = Number(value);
      if (!Number.isFinite(parsed)) throw new UsageError(`${flagName(name)} "${value}" must be a number`);
    }
    if (spec.choices && !spec.choices.includes(value)) {
      throw new UsageError(`${flagName(name)} "${value}" must be one of ${spec.choices.join(', ')}`);
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
