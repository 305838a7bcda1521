import type { GpgKeyOutput } from '../../../../../generated/types/cli/output/gpg-key.ts';
import { UsageError } from '../../../../core/errors.ts';
import { type CommandDeps, defineCommand } from '../../../command.ts';
import { apply, planOf } from '../../../output/change.ts';
import { type DescriptionSource, readDescription } from '../../pr/description-input.ts';
import { checkGpgKey, gpgPath, type RestGpgKey, toGpgKey } from './common.ts';

async function prepare(source: DescriptionSource, deps: CommandDeps) {
  const text = checkGpgKey(
    await readDescription(source, deps, false),
    source.file !== undefined ? `--key-file ${source.file}` : '--key',
  );
  const host = await deps.host();
  return {
    client: await deps.client(host),
    intent: 'bbdc auth gpg-key add',
    host: host.url,
    target: { type: 'gpg-key', id: 'your account' },
    request: { method: 'POST', path: gpgPath, body: { text } },
    description: 'add a GPG public key to your account',
    predicted: 'create' as const,
    reasons: [],
  };
}

/** `bbdc auth gpg-key add --key-file key.asc`: adds a public key so your signed commits show as verified. */
export const command = defineCommand<{ source: DescriptionSource }, GpgKeyOutput>({
  name: 'auth gpg-key add',
  summary: 'Add a GPG public key to your account',
  args: [],
  flags: {
    key: { type: 'string', value: 'TEXT', description: 'The armoured public key block' },
    keyFile: {
      type: 'string',
      value: 'FILE',
      description: 'Read it from a file (gpg --armor --export <id> > key.asc); - reads stdin',
    },
  },
  outputSchema: 'gpg-key',
  effect: 'mutating',
  examples: ['gpg --armor --export you@example.com | bbdc auth gpg-key add --key-file -'],
  parse: ({ flags }) => {
    if ((flags.key === undefined) === (flags.keyFile === undefined))
      throw new UsageError('give the key with --key TEXT or --key-file FILE (one of them)');
    return { source: { text: flags.key as string | undefined, file: flags.keyFile as string | undefined } };
  },
  plan: async (o, deps) => planOf(await prepare(o.source, deps)),
  async run(o, deps) {
    const res = await apply<RestGpgKey>(await prepare(o.source, deps));
    return toGpgKey(res!.data);
  },
  human(d, ui) {
    ui.line(`Added GPG key ${d.id} (${d.fingerprint})`);
  },
});
