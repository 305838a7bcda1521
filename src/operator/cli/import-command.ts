// `realmforge import`: wiring only. Reads a realm export (a file, or a live Keycloak's partial export), runs the
// pure importer (compile/import/), checks the result against the CRD schemas and prints it. Nothing reaches
// stdout unless the whole import succeeded (and, with --strict, left nothing out).
import { readFileSync } from 'node:fs';
import { UsageError, ValidationError } from '../../core/errors.ts';
import type { Io } from '../../core/io.ts';
import { importReport, importYaml } from '../compile/import/import-output.ts';
import { type ImportResult, importRealm } from '../compile/import/import-realm.ts';
import { createResourceValidator } from '../compile/resource-validator.ts';
import { readRealmExport } from '../keycloak/realm-export.ts';
import { loadCrdSchemas } from '../runtime/crd-schemas.ts';
import { checkAccessFlags, type KeycloakAccessFlags, withKeycloak } from './keycloak-access.ts';

export type ImportFlags = KeycloakAccessFlags & {
  namespace?: string;
  realmNamespace?: string;
  server?: string;
  serverNamespace?: string;
  realm?: string;
  secrets?: boolean;
  strict?: boolean;
};

const namePattern = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function checkFlags(args: string[], flags: ImportFlags): void {
  if (!flags.namespace)
    throw new UsageError('import needs --namespace: the namespace of the IdentityClients');
  for (const [flag, value] of [
    ['--namespace', flags.namespace],
    ['--realm-namespace', flags.realmNamespace],
    ['--server-namespace', flags.serverNamespace],
    ['--server', flags.server],
  ] as const)
    if (value !== undefined && !namePattern.test(value))
      throw new UsageError(
        `${flag} "${value}" is not a Kubernetes name (lower-case letters, digits and '-')`,
      );
  const live = flags.keycloakUrl !== undefined;
  if (live === (args.length === 1) || args.length > 1)
    throw new UsageError(
      'import reads one realm export: realmforge import <export.json> or realmforge import --keycloak-url <url> --realm <name>',
    );
  if (live && !flags.realm) throw new UsageError('--keycloak-url needs --realm: the realm to import');
  checkAccessFlags(flags);
}

/** Imports, validates and prints; resolves with the exit code. */
export async function runImport(args: string[], io: Io, flags: ImportFlags): Promise<number> {
  checkFlags(args, flags);
  const [file] = args;
  const source = file ?? `${flags.keycloakUrl} realm ${flags.realm}`;
  const input = file ? readExportFile(file) : await readLive(flags);
  const result = importRealm(input, {
    namespace: flags.namespace as string,
    realmNamespace: flags.realmNamespace,
    server: { name: flags.server ?? 'keycloak', namespace: flags.serverNamespace },
    source,
    realm: flags.realm,
  });
  validate(result, source);
  io.stderr.write(importReport(result, Boolean(flags.secrets)));
  if (flags.strict && result.unexpressed.length)
    throw new ValidationError(
      `${source}: --strict: ${result.unexpressed.length} item(s) above cannot be expressed by the CRDs; nothing printed`,
    );
  io.stdout.write(importYaml(result, Boolean(flags.secrets)));
  return 0;
}

function readExportFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ValidationError(
      `${file}: not JSON (${(error as Error).message}): a realm export is the JSON file kc.sh export or the admin console's partial export writes`,
    );
  }
}

/** The output must be what the API server accepts: a failure here is the importer's bug, named as such. */
function validate(result: ImportResult, source: string): void {
  const check = createResourceValidator(loadCrdSchemas());
  for (const resource of [result.realm, ...result.clients]) {
    try {
      check(structuredClone(resource), `the import of ${source}`);
    } catch (error) {
      throw new ValidationError(
        `${(error as Error).message} (a realmforge bug: please report it with the export's shape)`,
        {
          details: (error as ValidationError).details,
        },
      );
    }
  }
}

async function readLive(flags: ImportFlags): Promise<unknown> {
  return withKeycloak(flags, (admin) => readRealmExport(admin, flags.realm as string));
}
