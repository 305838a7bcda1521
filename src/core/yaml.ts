import { stringify } from 'yaml';

/** Prints objects as one multi-document YAML stream, byte-stable for the same input. */
export function toYamlDocuments(objects: readonly unknown[]): string {
  return objects.map((o) => stringify(o, { lineWidth: 0, aliasDuplicateObjects: false })).join('---\n');
}
