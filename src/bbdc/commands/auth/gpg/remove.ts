import type { KeyRemovalOutput } from '../../../../../generated/types/cli/output/key-removal.ts';
import { RealmforgeError } from '../../../../core/errors.ts';
import { collectPages } from '../../../api/paging.ts';
import { segment } from '../../../api/path.ts';
import { type CommandDeps, defineCommand } from '../../../command.ts';
import { apply, planOf } from '../../../output/change.ts';
import { gpgPath, type RestGpgKey } from './common.ts';

async function prepare(id: string, deps: CommandDeps) {
  const host = await deps.host();
  const client = await deps.client(host);
  const { values } = await collectPages<RestGpgKey>(client, gpgPath, {}, undefined);
  const key = values.find(
    (k) => k.id.toUpperCase() === id.toUpperCase() || k.fingerprint.toUpperCase() === id.toUpperCase(),
  );
  if (!key)
    throw new RealmforgeError(
      'not_found',
      `no GPG key ${id} on your account; see \`bbdc auth gpg-key list\``,
    );
  return {
    client,
    intent: `bbdc auth gpg-key remove ${id}`,
    host: host.url,
    target: { type: 'gpg-key', id: key.fingerprint },
    request: { method: 'DELETE', path: `${gpgPath}/${segment('key', key.fingerprint)}` },
    description: `remove GPG key ${key.id} from your account`,
    predicted: 'delete' as const,
    reasons: ['commits it signed will no longer show as verified'],
  };
}

/** `bbdc auth gpg-key remove <id|fingerprint>`: removes one GPG key of yours. */
export const command = defineCommand<{ id: string }, KeyRemovalOutput>({
  name: 'auth gpg-key remove',
  summary: 'Remove one GPG key from your account',
  args: [{ name: 'key', required: true, description: 'Key id or fingerprint (see bbdc auth gpg-key list)' }],
  flags: {},
  outputSchema: 'key-removal',
  effect: 'mutating',
  examples: ['bbdc auth gpg-key remove 3AA5C34371567BD2'],
  parse: ({ args }) => ({ id: String(args[0]) }),
  plan: async (o, deps) => planOf(await prepare(o.id, deps)),
  async run(o, deps) {
    await apply(await prepare(o.id, deps));
    return { type: 'gpg-key', id: o.id, removed: true };
  },
  human(d, ui) {
    ui.line(`Removed GPG key ${d.id}`);
  },
});
