// Indexes the Bitbucket DC 9.4 OpenAPI document so the fake server can check every request against it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One documented operation: method, path template (under /rest), its matcher and required query parameters. */
export type Operation = {
  method: string;
  template: string;
  operationId: string;
  pattern: RegExp;
  pathParams: string[];
  requiredQuery: string[];
  /** Every query parameter the document declares for the operation. */
  query: string[];
  literalSegments: number;
};

/** Atlassian's Bitbucket DC 9.4 OpenAPI document: a copy of ../shared/reference's (data, kept here so the tests
 * need no ../shared; a test checks the copy is unchanged when ../shared is there). */
export const documentPath = join(import.meta.dirname, 'bitbucket-dc-9.4-openapi.json');

type Doc = {
  paths: Record<
    string,
    Record<string, { operationId: string; parameters?: { name: string; in: string; required?: boolean }[] }>
  >;
};

/** Compiles a path template such as `/api/latest/projects/{projectKey}` into a matcher. */
export function compileTemplate(template: string): {
  pattern: RegExp;
  pathParams: string[];
  literalSegments: number;
} {
  const pathParams: string[] = [];
  let literalSegments = 0;
  const source = template
    .split('/')
    .map((segment) => {
      if (!segment.includes('{')) {
        literalSegments++;
        return segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      }
      return segment.replace(/\{([^}]+)\}/g, (_, name: string) => {
        pathParams.push(name);
        return name === 'path' ? '(.+)' : '([^/]+)';
      });
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), pathParams, literalSegments };
}

/** Loads and indexes every operation, most specific templates (more literal segments) first. */
export function loadOperations(path = documentPath): Operation[] {
  const doc = JSON.parse(readFileSync(path, 'utf8')) as Doc;
  const ops: Operation[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      if (!op?.operationId) continue;
      const requiredQuery = (op.parameters ?? [])
        .filter((p) => p.in === 'query' && p.required)
        .map((p) => p.name);
      ops.push({
        method: method.toUpperCase(),
        template,
        operationId: op.operationId,
        requiredQuery,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        ...compileTemplate(template),
      });
    }
  }
  return ops.sort((a, b) => b.literalSegments - a.literalSegments);
}

/** Finds the documented operation for a method and a path below /rest, with its path parameters. */
export function matchOperation(ops: Operation[], method: string, restPath: string) {
  for (const op of ops) {
    if (op.method !== method) continue;
    const m = op.pattern.exec(restPath);
    if (m)
      return {
        op,
        params: Object.fromEntries(op.pathParams.map((n, i) => [n, decodeURIComponent(m[i + 1])])),
      };
  }
  return undefined;
}
