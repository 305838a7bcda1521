import type { SshKeyOutput } from '../../../../generated/types/cli/output/ssh-key.ts';
import { type RestSshKey, toSshKey } from '../../api/keys.ts';
import { collectPages } from '../../api/paging.ts';
import { type CommandDeps, defineCommand } from '../../command.ts';
import { apply, planOf } from '../../output/change.ts';
import { keyFlags, keySource, readKey } from '../keys/key-input.ts';
import type { DescriptionSource } from '../pr/description-input.ts';

type Options = { source: DescriptionSource; label?: string };

async function prepare(o: Options, deps: CommandDeps) {
  const text = await readKey(o.source, deps);
  const host = await deps.host();
  const client = await deps.client(host);
  const { values } = await collectPages<RestSshKey>(client, '/rest/ssh/latest/keys', {}, undefined);
  const body = o.label ? { text, label: o.label } : { text };
  const same = values.find((k) => k.text.split(' ')[1] === text.split(' ')[1]);
  return {
    same,
    change: {
      client,
      intent: 'bbdc ssh-key add',
      host: host.url,
      target: { type: 'ssh-key', id: o.label ?? text.split(' ')[2] ?? text.split(' ')[0] },
      request: { method: 'POST', path: '/rest/ssh/latest/keys', body },
      description: 'add an SSH key to your account',
      predicted: same ? ('no-op' as const) : ('create' as const),
      reasons: same ? [`the key is already on your account as key ${same.id}`] : [],
    },
  };
}

/** `bbdc ssh-key add --key-file ~/.ssh/id_ed25519.pub`: adds a public key to your account (once). */
export const command = defineCommand<Options, SshKeyOutput>({
  name: 'ssh-key add',
  summary: 'Add an SSH public key to your account',
  args: [],
  flags: keyFlags,
  outputSchema: 'ssh-key',
  effect: 'mutating',
  examples: ['bbdc ssh-key add --key-file ~/.ssh/id_ed25519.pub --label laptop'],
  parse: ({ flags }) => ({ source: keySource(flags), label: flags.label as string | undefined }),
  plan: async (o, deps) => planOf((await prepare(o, deps)).change),
  async run(o, deps) {
    const p = await prepare(o, deps);
    const res = await apply<RestSshKey>(p.change);
    return { key: toSshKey(res?.data ?? p.same!), added: res !== undefined };
  },
  human(d, ui) {
    ui.line(
      d.added
        ? `Added SSH key ${d.key.id}${d.key.label ? ` (${d.key.label})` : ''}`
        : `The key is already on your account as key ${d.key.id}`,
    );
  },
});
