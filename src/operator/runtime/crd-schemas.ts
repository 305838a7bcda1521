import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../core/package-root.ts';
import type { SchemaDocuments } from '../compile/structural-schema.ts';

/** Reads every JSON Schema in schemas/crds/, keyed by file name. */
export function loadCrdSchemas(root: string = packageRoot()): SchemaDocuments {
  const dir = join(root, 'schemas', 'crds');
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.schema.json'))
      .sort()
      .map((f) => [f, JSON.parse(readFileSync(join(dir, f), 'utf8'))]),
  );
}
