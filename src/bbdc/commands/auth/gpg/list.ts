import type { GpgKeyListOutput } from '../../../../../generated/types/cli/output/gpg-key-list.ts';
import { collectPages } from '../../../api/paging.ts';
import { defineCommand } from '../../../command.ts';
import { gpgPath, type RestGpgKey, toGpgKey } from './common.ts';

/** `bbdc auth gpg-key list`: the GPG keys that verify your signed commits. */
export const command = defineCommand<Record<string, never>, GpgKeyListOutput>({
  name: 'auth gpg-key list',
  summary: 'List the GPG keys of your account',
  args: [],
  flags: {},
  outputSchema: 'gpg-key-list',
  effect: 'safe',
  examples: ['bbdc auth gpg-key list'],
  parse: () => ({}),
  async run(_o, deps) {
    const client = await deps.client();
    const { values } = await collectPages<RestGpgKey>(client, gpgPath, {}, undefined);
    return { keys: values.map(toGpgKey) };
  },
  human(d, ui) {
    if (!d.keys.length) ui.notice('No GPG keys on your account.');
    else
      ui.table(
        ['id', 'fingerprint', 'email', 'expires'],
        d.keys.map((k) => [k.id, k.fingerprint, k.email ?? '', k.expiryDate?.slice(0, 10) ?? 'never']),
      );
  },
});
