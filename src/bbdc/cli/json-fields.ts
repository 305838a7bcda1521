// gh's `--json number,title`: the field list after --json keeps only those fields of each item (or of the data).
import { UsageError } from '../../core/errors.ts';
import type { ArgSpec } from '../command.ts';

const fieldList = /^[A-Za-z_][\w]*(,[A-Za-z_][\w]*)*$/;

/**
 * Takes the field list out of argv: `--json=a,b` always, `--json a,b` when the word after --json is no argument
 * the command has room for (`pr list --json id`, `pr get 1 --json title`; `repo get --json name` reads a repository
 * named "name": write `--json=name` there). `positionals(argv)` counts the arguments argv gives the command.
 */
export function takeJsonFields(
  argv: string[],
  args: ArgSpec[],
  positionals: (argv: string[]) => number,
): { argv: string[]; fields?: string[] } {
  const end = argv.includes('--') ? argv.indexOf('--') : argv.length;
  const at = argv.findIndex((a, i) => i < end && (a === '--json' || a.startsWith('--json=')));
  if (at < 0) return { argv };
  const split = (list: string) => {
    if (!fieldList.test(list))
      throw new UsageError(`--json "${list}" is not a field list; write it as --json id,title`);
    return list.split(',');
  };
  if (argv[at] !== '--json')
    return { argv: argv.with(at, '--json'), fields: split(argv[at].slice('--json='.length)) };
  const next = argv[at + 1];
  if (next === undefined || at + 1 >= end || !fieldList.test(next)) return { argv };
  const without = argv.toSpliced(at + 1, 1);
  const room = args.at(-1)?.variadic || positionals(without) < args.length;
  return room ? { argv } : { argv: without, fields: next.split(',') };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `data` with only `fields` kept: in each item of its list (data that is a list, or has one list of objects among its
 * fields, whose other fields such as count stay), else in data itself. A field no item has is a UsageError naming
 * the fields there are.
 */
export function selectFields(data: unknown, fields: string[]): unknown {
  const pick = (items: unknown[]) => {
    const objects = items.filter(isObject);
    const known = new Set(objects.flatMap((o) => Object.keys(o)));
    const unknown = fields.filter((f) => !known.has(f));
    if (objects.length && unknown.length)
      throw new UsageError(
        `--json: no field ${unknown.join(', ')} here; the fields are ${[...known].sort().join(', ')}`,
      );
    return items.map((o) =>
      isObject(o) ? Object.fromEntries(fields.filter((f) => f in o).map((f) => [f, o[f]])) : o,
    );
  };
  if (Array.isArray(data)) return pick(data);
  if (!isObject(data)) return data;
  const lists = Object.keys(data).filter(
    (k) => Array.isArray(data[k]) && (data[k] as unknown[]).some(isObject),
  );
  if (lists.length === 1) return { ...data, [lists[0]]: pick(data[lists[0]] as unknown[]) };
  return pick([data])[0];
}
