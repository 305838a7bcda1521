import { readFileSync, statSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { ValidationError } from '../../core/errors.ts';
import { walkFiles } from '../../core/walk-files.ts';
import type { SourceDocument } from '../compile/synth.ts';

const manifestFile = /\.(ya?ml|json)$/;

function expand(path: string): string[] {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch {
    throw new ValidationError(`${path}: no such file or directory`);
  }
  return stat.isDirectory() ? walkFiles(path, (name) => manifestFile.test(name)) : [path];
}

/** Parses one file's text as YAML (JSON is YAML too); every syntax error names the file and line. */
export function parseManifests(text: string, file: string): SourceDocument[] {
  const docs = parseAllDocuments(text, { prettyErrors: true });
  const list = Array.isArray(docs) ? docs : [docs];
  const errors = list.flatMap((d) =>
    d.errors.map((e) => `${file}:${e.linePos?.[0].line ?? '?'}: ${e.message.split('\n')[0]}`),
  );
  if (errors.length) throw new ValidationError(`${file} is not valid YAML or JSON`, { details: errors });
  return list
    .map((d, i) => ({ source: list.length > 1 ? `${file} (document ${i + 1})` : file, data: d.toJS() }))
    .filter((d) => d.data !== null && d.data !== undefined);
}

/** Reads files and directories (recursively, *.yaml, *.yml, *.json) into documents, in a stable order. */
export function loadManifests(paths: readonly string[]): SourceDocument[] {
  return paths.flatMap(expand).flatMap((file) => parseManifests(readFileSync(file, 'utf8'), file));
}
