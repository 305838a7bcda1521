import { UsageError } from '../../core/errors.ts';
import type { Io } from '../../core/io.ts';
import { createResourceValidator } from '../compile/resource-validator.ts';
import { synth } from '../compile/synth.ts';
import { loadCrdSchemas } from '../runtime/crd-schemas.ts';
import { loadManifests } from '../runtime/load-resources.ts';

/** `realmforge synth <file|dir>...`: the YAML on stdout, a one-line summary on stderr; nothing on stdout on error. */
export function runSynth(paths: string[], io: Io): number {
  if (paths.length === 0)
    throw new UsageError('synth needs at least one file or directory: realmforge synth <file|dir>...');
  const result = synth(loadManifests(paths), createResourceValidator(loadCrdSchemas()));
  io.stdout.write(result.yaml);
  const { IdentityServer, IdentityRealm, IdentityClient } = result.counts;
  io.stderr.write(
    `synth: ${IdentityServer} IdentityServer(s) compiled into ${result.objects} objects; ${IdentityRealm} IdentityRealm(s) and ${IdentityClient} IdentityClient(s) validated\n`,
  );
  return 0;
}
