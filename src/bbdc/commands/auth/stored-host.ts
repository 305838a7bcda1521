import type { BbdcHost } from '../../../../generated/types/cli/config.ts';
import { ValidationError } from '../../../core/errors.ts';
import type { CommandDeps } from '../../command.ts';
import { findHost } from '../../config/hosts.ts';

/** The configured entry for the host this run targets (--host, BBDC_URL, git, default); a ValidationError if none. */
export async function storedHost(deps: CommandDeps): Promise<BbdcHost> {
  const url = deps.globals.host || deps.env.BBDC_URL ? (await deps.host()).url : deps.config().defaultHost;
  const match = url ? findHost(deps.config(), url) : undefined;
  if (!match) {
    throw new ValidationError(
      `${url ?? 'no server'} is not configured; run \`bbdc auth login <host>\` or pass --host`,
    );
  }
  return match.host;
}
