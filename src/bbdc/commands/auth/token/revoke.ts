import type { KeyRemovalOutput } from '../../../../../generated/types/cli/output/key-removal.ts';
import { segment } from '../../../api/path.ts';
import { type CommandDeps, defineCommand } from '../../../command.ts';
import { apply, planOf } from '../../../output/change.ts';
import {
  type RestToken,
  resolveTokenScope,
  scopeFlags,
  scopeOption,
  type TokenScopeOption,
  tokenIdArg,
} from './scope.ts';

type Options = TokenScopeOption & { id: string };

async function prepare(o: Options, deps: CommandDeps) {
  const s = await resolveTokenScope(o, deps);
  const path = `${s.base}/${segment('id', o.id)}`;
  const t = await s.client.get<RestToken>(path);
  return {
    scope: s.label,
    change: {
      client: s.client,
      intent: `bbdc auth token revoke ${o.id}`,
      host: s.host,
      target: { type: 'access-token', id: `${s.label}/${o.id}` },
      request: { method: 'DELETE', path },
      description: `revoke access token "${t.name}" on ${s.label}`,
      predicted: 'delete' as const,
      reasons: ['anything using it loses access at once'],
    },
  };
}

/** `bbdc auth token revoke <id>`: deletes a token; whatever used it stops working. */
export const command = defineCommand<Options, KeyRemovalOutput>({
  name: 'auth token revoke',
  summary: 'Revoke (delete) an HTTP access token',
  args: [tokenIdArg],
  flags: scopeFlags,
  outputSchema: 'key-removal',
  effect: 'mutating',
  examples: ['bbdc auth token revoke 252973515069'],
  parse: ({ args, flags }) => ({ ...scopeOption(flags), id: String(args[0]) }),
  plan: async (o, deps) => planOf((await prepare(o, deps)).change),
  async run(o, deps) {
    const p = await prepare(o, deps);
    await apply(p.change);
    return { type: 'access-token', id: o.id, scope: p.scope, removed: true };
  },
  human(d, ui) {
    ui.line(`Revoked access token ${d.id} on ${d.scope}`);
  },
});
