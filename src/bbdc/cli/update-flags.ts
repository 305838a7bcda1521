// `project update` and `repo update` change the same three fields: a name, a description and a visibility.
import { UsageError } from '../../core/errors.ts';
import type { FlagSpec } from '../command.ts';

/** What an update asks to change. */
export type Changes = { name?: string; description?: string; public?: boolean };

/** --name (described by `name`), --description and --visibility. */
export function updateFlags(name: string): Record<string, FlagSpec> {
  return {
    name: { type: 'string', value: 'NAME', description: name },
    description: { type: 'string', value: 'TEXT', description: 'New description' },
    visibility: {
      type: 'string',
      value: 'VISIBILITY',
      choices: ['public', 'private'],
      description: 'public or private',
    },
  };
}

/** The changes the flags ask for; at least one is needed. */
export function parseChanges(flags: Record<string, unknown>): Changes {
  const changes: Changes = {};
  if (flags.name !== undefined) changes.name = String(flags.name);
  if (flags.description !== undefined) changes.description = String(flags.description);
  if (flags.visibility !== undefined) changes.public = flags.visibility === 'public';
  if (!Object.keys(changes).length)
    throw new UsageError('nothing to change: pass --name, --description or --visibility');
  return changes;
}

/** The fields of `changes` that differ from the object as it is, as `field: old -> new`. */
export function differences(
  current: { name: string; description?: string; public?: boolean },
  changes: Changes,
): string[] {
  const out: string[] = [];
  if (changes.name !== undefined && changes.name !== current.name)
    out.push(`name: ${current.name} -> ${changes.name}`);
  if (changes.description !== undefined && changes.description !== (current.description ?? ''))
    out.push(`description: "${current.description ?? ''}" -> "${changes.description}"`);
  if (changes.public !== undefined && changes.public !== (current.public === true))
    out.push(
      `visibility: ${current.public ? 'public' : 'private'} -> ${changes.public ? 'public' : 'private'}`,
    );
  return out;
}
