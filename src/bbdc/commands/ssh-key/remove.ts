import type { KeyRemovalOutput } from '../../../../generated/types/cli/output/key-removal.ts';
import { parseKeyId, type RestSshKey } from '../../api/keys.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { apply, planOf } from '../../output/change.ts';

async function prepare(id: number, deps: CommandDeps) {
  const host = await deps.host();
  const client = await deps.client(host);
  const key = await client.get<RestSshKey>(`/rest/ssh/latest/keys/${id}`);
  return {
    client,
    intent: `bbdc ssh-key remove ${id}`,
    host: host.url,
    target: { type: 'ssh-key', id: String(id) },
    request: { method: 'DELETE', path: `/rest/ssh/latest/keys/${id}` },
    description: `remove SSH key ${id}${key.label ? ` (${key.label})` : ''} from your account`,
    predicted: 'delete' as const,
    reasons: [],
  };
}

/** `bbdc ssh-key remove <id>`: removes one of your SSH keys. */
export const command = defineCommand<{ id: number }, KeyRemovalOutput>({
  name: 'ssh-key remove',
  summary: 'Remove one of your SSH keys',
  args: [{ name: 'id', required: true, description: 'Key id (see bbdc ssh-key list)' }],
  flags: {},
  outputSchema: 'key-removal',
  effect: 'mutating',
  examples: ['bbdc ssh-key remove 12'],
  parse: ({ args }) => ({ id: parseKeyId(args[0]) }),
  plan: async (o, deps) => planOf(await prepare(o.id, deps)),
  async run(o, deps) {
    await apply(await prepare(o.id, deps));
    return { type: 'ssh-key', id: String(o.id), removed: true };
  },
  human(d, ui) {
    ui.line(`Removed SSH key ${d.id}`);
  },
});
