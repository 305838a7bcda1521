import type { SshKeyListOutput } from '../../../../generated/types/cli/output/ssh-key-list.ts';
import { type RestSshKey, toSshKey } from '../../api/keys.ts';
import { collectPages } from '../../api/paging.ts';
import { defineCommand } from '../../command.ts';
import type { Ui } from '../../output/ui.ts';

/** Prints keys: id, label, algorithm, fingerprint (or the start of the key), permission. */
export function printKeys(d: SshKeyListOutput, ui: Ui): void {
  if (!d.keys.length) {
    ui.notice(`No SSH keys on ${d.owner}.`);
    return;
  }
  ui.table(
    ['id', 'label', 'type', 'key', ...(d.keys.some((k) => k.permission) ? ['permission'] : [])],
    d.keys.map((k) => [
      String(k.id),
      k.label ?? '',
      k.algorithm ?? k.text.split(' ')[0],
      k.fingerprint ?? `${k.text.split(' ')[1]?.slice(0, 16)}…`,
      ...(k.permission ? [k.permission] : []),
    ]),
  );
}

/** `bbdc ssh-key list`: your SSH keys (the ones git uses to authenticate as you). */
export const command = defineCommand<Record<string, never>, SshKeyListOutput>({
  name: 'ssh-key list',
  summary: 'List your SSH keys',
  args: [],
  flags: {},
  outputSchema: 'ssh-key-list',
  effect: 'safe',
  examples: ['bbdc ssh-key list'],
  parse: () => ({}),
  async run(_o, deps) {
    const client = await deps.client();
    const { values } = await collectPages<RestSshKey>(client, '/rest/ssh/latest/keys', {}, undefined);
    return { owner: client.username ?? 'you', keys: values.map((k) => toSshKey(k)) };
  },
  human: printKeys,
});
