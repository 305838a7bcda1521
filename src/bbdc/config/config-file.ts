import { existsSync, readFileSync } from 'node:fs';
import { isMap, isSeq, LineCounter, type Node, parseDocument, stringify } from 'yaml';
import type { BbdcConfig } from '../../../generated/types/cli/config.ts';
import validate from '../../../generated/validators/config.ts';
import { ValidationError } from '../../core/errors.ts';
import { formatSchemaErrors } from '../../core/schema-errors.ts';
import { writePrivateFile } from './private-file.ts';

/** The parsed config file, or an empty one when the file does not exist yet. */
export type LoadedConfig = { path: string; config: BbdcConfig; exists: boolean };

/** The YAML node at an Ajv instance path (`/hosts/0/url`), to report the line of a schema error. */
export function nodeAt(root: Node | null, instancePath: string): Node | null {
  let node: unknown = root;
  for (const part of instancePath.split('/').filter(Boolean)) {
    if (isMap(node)) node = node.get(part, true);
    else if (isSeq(node)) node = node.get(Number(part), true);
    else return null;
  }
  return (node as Node) ?? null;
}

/** Reads and validates the config file; a malformed file is a ValidationError naming the file and line. */
export function loadConfig(path: string): LoadedConfig {
  if (!existsSync(path)) return { path, config: {}, exists: false };
  const text = readFileSync(path, 'utf8');
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length) {
    const e = doc.errors[0];
    const line = e.linePos?.[0].line ?? lineCounter.linePos(e.pos[0]).line;
    throw new ValidationError(`${path}:${line}: malformed YAML: ${e.message.split('\n')[0]}`, {
      details: ['fix the file by hand or move it away; bbdc did not change it'],
    });
  }
  const data = (doc.toJS() ?? {}) as unknown;
  if (!validate(data)) {
    const lines = formatSchemaErrors(validate.errors).map((message, i) => {
      const node = nodeAt(doc.contents, validate.errors?.[i].instancePath ?? '');
      const line = node?.range ? lineCounter.linePos(node.range[0]).line : 1;
      return `${path}:${line}: ${message}`;
    });
    throw new ValidationError(`${path} is not a valid bbdc config file`, {
      details: [...lines, 'fix the file by hand or move it away; bbdc did not change it'],
    });
  }
  return { path, config: data as BbdcConfig, exists: true };
}

/** Writes the config atomically with the directory at 0700 and the file at 0600. */
export function saveConfig(path: string, config: BbdcConfig): void {
  writePrivateFile(path, stringify(config));
}
