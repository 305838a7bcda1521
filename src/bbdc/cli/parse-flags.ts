import meow from 'meow';
import { UsageError } from '../../core/errors.ts';
import { type ArgSpec, argUsage, type FlagSpec } from '../command.ts';
import { kebab } from './help.ts';

type MeowFlag = {
  type: 'string' | 'boolean' | 'number';
  shortFlag?: string;
  isMultiple?: boolean;
  default?: unknown;
};

/** Parses argv (command words removed) with meow against the given flags; unknown flags are a UsageError. */
export function parseFlags(
  argv: string[],
  flags: Record<string, FlagSpec>,
  args: ArgSpec[],
  commandName: string,
): { args: string[]; flags: Record<string, unknown> } {
  const meowFlags: Record<string, MeowFlag> = {};
  for (const [name, spec] of Object.entries(flags)) {
    const flag: MeowFlag = { type: spec.type };
    if (spec.shortFlag) flag.shortFlag = spec.shortFlag;
    if (spec.isMultiple) flag.isMultiple = true;
    if (spec.default !== undefined) flag.default = spec.default;
    meowFlags[name] = flag;
  }
  // meow reads a lone `-` (stdin, by convention) as no value at all; glue it to the string flag before it.
  const stringFlags = new Set(
    Object.entries(flags)
      .filter(([, spec]) => spec.type === 'string')
      .map(([name]) => `--${kebab(name)}`),
  );
  const glued: string[] = [];
  for (const arg of argv) {
    if (arg === '-' && stringFlags.has(glued.at(-1) ?? '')) glued[glued.length - 1] += '=-';
    else glued.push(arg);
  }
  let result: ReturnType<typeof meow>;
  try {
    result = meow({
      importMeta: import.meta,
      argv: glued,
      flags: meowFlags as never,
      autoHelp: false,
      autoVersion: false,
      allowUnknownFlags: true,
      pkg: {},
      description: false,
      // Leave unset booleans undefined so `--no-color` can be told apart from not passing --color.
      booleanDefault: undefined,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (bbdc ${commandName})`);
  }
  const known = new Set(Object.keys(flags));
  for (const spec of Object.values(flags)) if (spec.shortFlag) known.add(spec.shortFlag);
  const unknown = Object.keys(result.unnormalizedFlags).filter((k) => !known.has(k) && !k.includes('-'));
  if (unknown.length) {
    const names = unknown.map((k) => (k.length === 1 ? `-${k}` : `--${kebab(k)}`));
    throw new UsageError(
      `unknown flag ${names.join(', ')} for bbdc ${commandName}; run \`bbdc ${commandName} --help\``,
    );
  }
  for (const [name, spec] of Object.entries(flags)) {
    const value = result.flags[name];
    if (spec.type === 'string' && value === '' && !spec.isMultiple) {
      throw new UsageError(`--${kebab(name)} needs a value${spec.value ? ` (${spec.value})` : ''}`);
    }
    if (spec.choices && value !== undefined && !spec.choices.includes(String(value))) {
      throw new UsageError(`--${kebab(name)} "${value}" must be one of ${spec.choices.join(', ')}`);
    }
  }
  const input = result.input.map(String);
  const required = args.filter((a) => a.required);
  if (input.length < required.length) {
    throw new UsageError(
      `missing argument <${required[input.length].name}>; usage: bbdc ${commandName} ${args.map(argUsage).join(' ')}`,
    );
  }
  if (input.length > args.length && !args.at(-1)?.variadic) {
    throw new UsageError(
      `unexpected argument "${input[args.length]}" for bbdc ${commandName}; run \`bbdc ${commandName} --help\``,
    );
  }
  return { args: input, flags: result.flags as Record<string, unknown> };
}
