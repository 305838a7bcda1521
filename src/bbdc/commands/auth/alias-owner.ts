import type { BbdcConfig } from '../../../../generated/types/cli/config.ts';
import { RealmforgeError } from '../../../core/errors.ts';

/** The URL of the configured host that already has this alias, if any. */
export function aliasOwner(config: BbdcConfig, alias: string): string | undefined {
  return (config.hosts ?? []).find((h) => (h.aliases ?? []).includes(alias))?.url;
}

/** A conflict error (exit 5): the alias belongs to another host. */
export class AliasConflictError extends RealmforgeError {
  constructor(message: string) {
    super('conflict', message);
  }
}
