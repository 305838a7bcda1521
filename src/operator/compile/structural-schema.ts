/** A JSON Schema document as parsed from schemas/, keyed by its file name for $ref resolution. */
export type SchemaDocuments = Readonly<Record<string, Record<string, unknown>>>;

// Keywords of JSON Schema 2020-12 that a CRD's OpenAPI v3 schema does not accept, or that only name things.
const dropped = new Set(['$schema', '$id', '$defs', '$comment', 'title', 'const', 'examples']);

/** Resolves a $ref (`#/$defs/x` or `./other.schema.json#/$defs/x`) from a schema in `file`. */
export function resolveRef(
  ref: string,
  file: string,
  docs: SchemaDocuments,
): { schema: unknown; file: string } {
  const [target, pointer = ''] = ref.split('#');
  const targetFile = target ? target.replace(/^\.\//, '') : file;
  let node: unknown = docs[targetFile];
  if (node === undefined) throw new Error(`schema ${file}: $ref ${ref} names an unknown file ${targetFile}`);
  for (const part of pointer.split('/').filter(Boolean)) node = (node as Record<string, unknown>)[part];
  if (node === undefined) throw new Error(`schema ${file}: $ref ${ref} points at nothing`);
  return { schema: node, file: targetFile };
}

/**
 * Converts a JSON Schema (with $refs into the given documents) into a structural OpenAPI v3 schema for a CRD:
 * refs inlined, naming keywords dropped, and additionalProperties:false removed (the API server prunes unknown
 * fields and, with strict field validation, rejects them).
 */
export function toStructural(schema: unknown, file: string, docs: SchemaDocuments): unknown {
  if (Array.isArray(schema)) return schema.map((s) => toStructural(s, file, docs));
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as Record<string, unknown>;
  if (typeof node.$ref === 'string') {
    const { schema: target, file: targetFile } = resolveRef(node.$ref, file, docs);
    const { $ref: _, ...siblings } = node;
    return toStructural({ ...(target as object), ...siblings }, targetFile, docs);
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(node).sort()) {
    const value = node[key];
    if (dropped.has(key) || (key === 'additionalProperties' && value === false)) continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as object).map(([k, v]) => [k, toStructural(v, file, docs)]),
      );
    } else if (['items', 'additionalProperties', 'not', 'allOf', 'anyOf', 'oneOf'].includes(key)) {
      out[key] = toStructural(value, file, docs);
    } else {
      out[key] = value;
    }
  }
  return out;
}
