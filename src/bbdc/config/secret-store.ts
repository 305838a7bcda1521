import { existsSync, readFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import type { Keyring } from '../deps.ts';
import { writePrivateFile } from './private-file.ts';

/** Where a host's secret lives: the OS keyring, or the 0600 plaintext file when there is no keyring. */
export type SecretStorage = 'keyring' | 'file';

const service = 'bbdc';

function readFile(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  return (parse(readFileSync(path, 'utf8')) ?? {}) as Record<string, string>;
}

/** Stores, reads and deletes per-host secrets, preferring the keyring and falling back to a 0600 file. */
export interface SecretStore {
  save(hostUrl: string, secret: string): Promise<SecretStorage>;
  load(hostUrl: string, storage: SecretStorage | undefined): Promise<string | undefined>;
  remove(hostUrl: string, storage: SecretStorage | undefined): Promise<void>;
}

/** Builds the store over an optional keyring and the fallback file path. */
export function createSecretStore(keyring: Keyring | undefined, filePath: string): SecretStore {
  return {
    async save(hostUrl, secret) {
      if (keyring) {
        try {
          await keyring.set(service, hostUrl, secret);
          const secrets = readFile(filePath);
          if (hostUrl in secrets) {
            delete secrets[hostUrl];
            writePrivateFile(filePath, stringify(secrets));
          }
          return 'keyring';
        } catch {
          // No keyring service (headless Linux, locked keychain): fall back to the private file.
        }
      }
      const secrets = readFile(filePath);
      secrets[hostUrl] = secret;
      writePrivateFile(filePath, stringify(secrets));
      return 'file';
    },
    async load(hostUrl, storage) {
      if (storage === 'keyring' && keyring) {
        try {
          return (await keyring.get(service, hostUrl)) ?? undefined;
        } catch {
          return undefined;
        }
      }
      return readFile(filePath)[hostUrl];
    },
    async remove(hostUrl, storage) {
      if (storage === 'keyring' && keyring) await keyring.delete(service, hostUrl).catch(() => false);
      const secrets = readFile(filePath);
      if (hostUrl in secrets) {
        delete secrets[hostUrl];
        writePrivateFile(filePath, stringify(secrets));
      }
    },
  };
}
