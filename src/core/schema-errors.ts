// Schema error messages, apart from Ajv itself so that code running precompiled validators never loads Ajv.
import type { ErrorObject } from 'ajv/dist/2020.js';

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
