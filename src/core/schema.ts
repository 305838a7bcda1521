import { Ajv2020, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ValidationError } from './errors.ts';
import { formatSchemaErrors } from './schema-errors.ts';

export { formatSchemaErrors } from './schema-errors.ts';

/** One Ajv instance for the whole process: strict on unknown keywords, all errors, JSON Schema 2020-12. */
export function createAjv(extra: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: true, ...extra });
  addFormats.default(ajv);
  return ajv;
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
