import type { KeyRemovalOutput } from '../../../../../generated/types/cli/output/key-removal.ts';
import { collectPages } from '../../../api/paging.ts';
import { confirmByName } from '../../../cli/confirm.ts';
import { type CommandDeps, defineCommand } from '../../../command.ts';
import { apply, planOf } from '../../../output/change.ts';
import { gpgPath, type RestGpgKey } from './common.ts';

async function prepare(deps: CommandDeps) {
  const host = await deps.host();
  const client = await deps.client(host);
  const { values } = await collectPages<RestGpgKey>(client, gpgPath, {}, undefined);
  await client.get('/rest/api/latest/application-properties');
  return {
    count: values.length,
    change: {
      client,
      intent: 'bbdc auth gpg-key clear',
      host: host.url,
      target: { type: 'gpg-keys', id: client.username ?? 'your account' },
      request: { method: 'DELETE', path: gpgPath, query: { user: client.username } },
      description: `remove all ${values.length} GPG keys from your account`,
      predicted: values.length ? ('delete' as const) : ('no-op' as const),
      reasons: values.map((k) => `key ${k.id} (${k.fingerprint})`),
    },
  };
}

/** `bbdc auth gpg-key clear --yes`: removes every GPG key of yours in one request. */
export const command = defineCommand<{ yes: boolean }, KeyRemovalOutput>({
  name: 'auth gpg-key clear',
  summary: 'Remove every GPG key from your account',
  args: [],
  flags: { yes: { type: 'boolean', shortFlag: 'y', description: 'Do not ask for confirmation' } },
  outputSchema: 'key-removal',
  effect: 'mutating',
  examples: ['bbdc auth gpg-key clear --yes'],
  parse: ({ flags }) => ({ yes: flags.yes === true }),
  plan: async (_o, deps) => planOf((await prepare(deps)).change),
  async run(o, deps) {
    const p = await prepare(deps);
    if (p.count) await confirmByName(deps, 'the GPG keys of', p.change.target.id, o.yes);
    await apply(p.change);
    return { type: 'gpg-keys', id: String(p.count), removed: p.count > 0 };
  },
  human(d, ui) {
    ui.line(d.removed ? `Removed ${d.id} GPG keys` : 'No GPG keys to remove');
  },
});
