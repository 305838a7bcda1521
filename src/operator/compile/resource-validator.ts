import type { ValidateFunction } from 'ajv';
import type { IdentityClient } from '../../../generated/types/crds/identityclient.ts';
import type { IdentityRealm } from '../../../generated/types/crds/identityrealm.ts';
import type { IdentityServer } from '../../../generated/types/crds/identityserver.ts';
import { ValidationError } from '../../core/errors.ts';
import { createAjv, formatSchemaErrors } from '../../core/schema.ts';
import { celViolations } from './cel-rules.ts';
import type { SchemaDocuments } from './structural-schema.ts';

/** One of the three custom resources, after validation and defaulting. */
export type IdentityResource = IdentityServer | IdentityRealm | IdentityClient;

const files = {
  IdentityServer: 'identityserver.schema.json',
  IdentityRealm: 'identityrealm.schema.json',
  IdentityClient: 'identityclient.schema.json',
} as const;

/** Validates resources the way the API server would: schema (with defaults) first, then the CEL rules. */
export type ResourceValidator = (data: unknown, source: string) => IdentityResource;

/** Builds a validator from the schemas in schemas/crds/. */
export function createResourceValidator(docs: SchemaDocuments): ResourceValidator {
  const ajv = createAjv();
  for (const [file, schema] of Object.entries(docs)) ajv.addSchema({ ...schema, $id: file });
  const validators = new Map<string, ValidateFunction>(
    Object.entries(files).map(([kind, file]) => [kind, ajv.getSchema(file) as ValidateFunction]),
  );
  return (data, source) => {
    const object = (data ?? {}) as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
    const kind = typeof object.kind === 'string' ? object.kind : undefined;
    const validate = kind ? validators.get(kind) : undefined;
    if (!kind || !validate) {
      throw new ValidationError(
        `${source}: kind ${kind ?? '(missing)'} is not a realmforge.dev resource: expected IdentityServer, IdentityRealm or IdentityClient`,
      );
    }
    const name = `${kind} ${object.metadata?.namespace ?? 'default'}/${object.metadata?.name ?? '(no name)'}`;
    const problems = validate(data)
      ? celViolations(docs[files[kind as keyof typeof files]], data, files[kind as keyof typeof files], docs)
      : formatSchemaErrors(validate.errors);
    if (problems.length) throw new ValidationError(`${source}: ${name} is invalid`, { details: problems });
    return data as IdentityResource;
  };
}
