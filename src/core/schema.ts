import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ValidationError } from './errors.ts';

/** One Ajv instance for the whole process: strict on unknown keywords, all errors, JSON Schema 2020-12. */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: true });
  addFormats.default(ajv);
  return ajv;
}

/** Turns Ajv errors into lines that name the field path and say what is wrong. */
export function formatSchemaErrors(errors: readonly ErrorObject[] | null | undefined, root = ''): string[] {
  return (errors ?? []).map((e) => {
    const path = `${root}${e.instancePath.replaceAll('/', '.').replace(/^\./, root ? '.' : '')}` || '(root)';
    if (e.keyword === 'additionalProperties') {
      return `${path}: unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
    }
    if (e.keyword === 'required') {
      return `${path}: missing required field "${(e.params as { missingProperty: string }).missingProperty}"`;
    }
    if (e.keyword === 'enum') {
      return `${path}: must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    return `${path}: ${e.message}`;
  });
}

/** Validates data with a compiled schema, throwing a ValidationError that starts with `what` and lists each problem. */
export function assertValid<T>(
  validate: ValidateFunction,
  data: unknown,
  what: string,
  root = '',
): asserts data is T {
  if (!validate(data)) {
    throw new ValidationError(`${what} is invalid`, { details: formatSchemaErrors(validate.errors, root) });
  }
}
