import { sep } from 'node:path';

// Joined by hand rather than with path.join: its normalize is compiled on its first call, a cost in every command
// (they all find the config file). The names joined here hold no separator and no dot segment.
const inside = (dir: string, name: string) => (/[\\/]$/.test(dir) ? dir + name : `${dir}${sep}${name}`);

/** The bbdc configuration directory: `$BBDC_CONFIG_DIR`, else `~/.config/bbdc` (or `$XDG_CONFIG_HOME/bbdc`). */
export function configDir(env: Readonly<Record<string, string | undefined>>, homeDir: string): string {
  if (env.BBDC_CONFIG_DIR) return env.BBDC_CONFIG_DIR;
  return inside(env.XDG_CONFIG_HOME || inside(homeDir, '.config'), 'bbdc');
}

/** The config file inside a configuration directory. */
export function configFile(dir: string): string {
  return inside(dir, 'config.yaml');
}

/** The plaintext secrets file used when no OS keyring is available. */
export function secretsFile(dir: string): string {
  return inside(dir, 'credentials.yaml');
}
