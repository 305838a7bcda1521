// A block-style YAML emitter for JSON data (manifests). The `yaml` package's general emitter is slow for synth's
// volumes (docs/benchmarks.md); JSON data needs far less: any string that is not obviously plain is written as a JSON
// string, which is a valid YAML double-quoted scalar, so the output always parses back to the same data.

const plainString = /^[A-Za-z_/][A-Za-z0-9_./@-]*$/;
const reserved = /^(true|false|yes|no|on|off|y|n|null|~)$/i;

function scalar(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string')
    return plainString.test(value) && !reserved.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new TypeError(`cannot write ${typeof value} as YAML`);
}

const isBlock = (v: unknown): v is object =>
  typeof v === 'object' && v !== null && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0);
const inline = (v: unknown) =>
  isBlock(v) ? '' : Array.isArray(v) ? '[]' : typeof v === 'object' && v ? '{}' : scalar(v);

function write(value: object, indent: string, out: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) {
      if (!isBlock(item)) {
        out.push(`${indent}- ${inline(item)}`);
        continue;
      }
      const start = out.length;
      write(item, `${indent}  `, out);
      out[start] = `${indent}- ${out[start].slice(indent.length + 2)}`;
    }
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    if (isBlock(v)) {
      out.push(`${indent}${scalar(key)}:`);
      write(v, `${indent}  `, out);
    } else {
      out.push(`${indent}${scalar(key)}: ${inline(v)}`);
    }
  }
}

/** Writes one JSON value as a YAML document (block style, keys in their given order). */
export function toYaml(value: unknown): string {
  if (!isBlock(value)) return `${inline(value)}\n`;
  const out: string[] = [];
  write(value, '', out);
  return `${out.join('\n')}\n`;
}

/** Prints objects as one multi-document YAML stream, byte-stable for the same input. */
export function toYamlDocuments(objects: readonly unknown[]): string {
  return objects.map(toYaml).join('---\n');
}
