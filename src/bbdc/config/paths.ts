import { join } from 'node:path';

/** The bbdc configuration directory: `$BBDC_CONFIG_DIR`, else `~/.config/bbdc` (or `$XDG_CONFIG_HOME/bbdc`). */
export function configDir(env: Readonly<Record<string, string | undefined>>, homeDir: string): string {
  if (env.BBDC_CONFIG_DIR) return env.BBDC_CONFIG_DIR;
  return join(env.XDG_CONFIG_HOME || join(homeDir, '.config'), 'bbdc');
}

/** The config file inside a configuration directory. */
export function configFile(dir: string): string {
  return join(dir, 'config.yaml');
}

/** The plaintext secrets file used when no OS keyring is available. */
export function secretsFile(dir: string): string {
  return join(dir, 'credentials.yaml');
}
