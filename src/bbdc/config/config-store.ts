// Reading and writing the config file behind two functions, so that a read-only command run without a config file
// (BBDC_URL and BBDC_TOKEN, as in CI) never loads the YAML parser and the validator.
import { existsSync } from 'node:fs';
import type { BbdcConfig } from '../../../generated/types/cli/config.ts';

/** Loads and saves the config file at one path. */
export type ConfigStore = { load(): BbdcConfig; save(config: BbdcConfig): void };

/** The store for `path`; `mayWrite` (a mutating command) or an existing file loads the YAML code up front. */
export async function configStoreFor(path: string, mayWrite: boolean): Promise<ConfigStore> {
  if (!mayWrite && !existsSync(path)) {
    return {
      load: () => ({}),
      save: () => {
        throw new Error(`internal: a read-only command tried to write ${path}`);
      },
    };
  }
  const { loadConfig, saveConfig } = await import('./config-file.ts');
  return { load: () => loadConfig(path).config, save: (config) => saveConfig(path, config) };
}
