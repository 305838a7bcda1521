import type { AuthServerUseOutput } from '../../../../generated/types/cli/output/auth-server-use.ts';
import { ValidationError } from '../../../core/errors.ts';
import type { CommandDeps } from '../../command.ts';
import { defineCommand } from '../../command.ts';
import { findHost, normalizeHostUrl } from '../../config/hosts.ts';
import { makePlan } from '../../output/plan.ts';

type Options = { host: string };

function target(o: Options, deps: CommandDeps): string | undefined {
  return findHost(deps.config(), o.host)?.host.url;
}

/** `bbdc auth server use <host>`: makes a configured server the default. */
export const command = defineCommand<Options, AuthServerUseOutput>({
  name: 'auth server use',
  summary: 'Make a configured server the default',
  args: [{ name: 'host', required: true, description: 'A configured server (URL, host or alias)' }],
  flags: {},
  outputSchema: 'auth-server-use',
  effect: 'mutating',
  parse: ({ args }) => ({ host: normalizeHostUrl(args[0], 'host') }),
  async plan(o, deps) {
    const url = target(o, deps);
    const current = deps.config().defaultHost;
    return makePlan({
      intent: `bbdc auth server use ${o.host}`,
      target: { type: 'host', id: url ?? o.host },
      action: { type: 'config', description: `make ${url ?? o.host} the default server` },
      predictedAction: !url ? 'conflict' : current === url ? 'no-op' : 'update',
      reasons: [current ? `the default is ${current}` : 'no default server is set'],
      blockingReasons: url ? [] : [`${o.host} is not configured; run \`bbdc auth login ${o.host}\` first`],
    });
  },
  async run(o, deps) {
    const url = target(o, deps);
    if (!url)
      throw new ValidationError(`${o.host} is not configured; run \`bbdc auth login ${o.host}\` first`);
    const config = deps.config();
    const previous = config.defaultHost;
    deps.saveConfig({ ...config, defaultHost: url });
    return previous ? { defaultHost: url, previous } : { defaultHost: url };
  },
  human(d, ui) {
    ui.line(`Default server: ${d.defaultHost}`);
  },
});
