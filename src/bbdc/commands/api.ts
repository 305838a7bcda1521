// `bbdc api`: a raw REST call, as `gh api` is to GitHub: any operation bbdc has no command for, with bbdc's
// server, credentials, retries, error envelope and paging guard. Only paths under /rest/ on the configured server
// are sent (never a full URL: the token would go wherever it points), and the token is never printed.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../../core/errors.ts';
import type { Query } from '../api/client.ts';
import { collectPages } from '../api/paging.ts';
import { type CommandDeps, defineCommand } from '../command.ts';
import { type Change, planOf } from '../output/change.ts';

const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
type Options = {
  method: string;
  path: string;
  fields: [string, unknown][];
  input?: string;
  paginate: boolean;
};

/** `rest/api/latest/x`, `/api/latest/x` or `/rest/api/latest/x` -> `/rest/api/latest/x`; a URL or `..` is refused. */
export function apiPath(text: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('//'))
    throw new UsageError(
      `path "${text}" is a URL: give the path under /rest/ (e.g. api/latest/projects); the server comes from --host or the configuration, so the token never goes elsewhere`,
    );
  const path = `/${text.replace(/^\/+/, '')}`.replace(/^\/(?!rest\/)/, '/rest/');
  const [pathOnly] = path.split('?');
  if (pathOnly.split('/').some((s, i) => i > 0 && (s === '.' || s === '..' || s === '')))
    throw new UsageError(
      `path "${text}" has an empty, "." or ".." segment; give the full path of the resource`,
    );
  if (path.includes('?'))
    throw new UsageError(
      `path "${text}" has a query string: pass each parameter with --field name=value on a GET`,
    );
  return path;
}

/** `-F` values are JSON literals when they parse as true, false, null or a number; anything else is text. */
const typed = (v: string): unknown => (/^(true|false|null|-?\d+(\.\d+)?)$/.test(v) ? JSON.parse(v) : v);

function parseField(text: string, flag: string, asTyped: boolean): [string, unknown] {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} "${text}" must be name=value`);
  const value = text.slice(at + 1);
  return [text.slice(0, at), asTyped ? typed(value) : value];
}

async function readInput(file: string, deps: CommandDeps): Promise<unknown> {
  const text =
    file === '-'
      ? await deps.readStdin()
      : (() => {
          try {
            return readFileSync(resolve(deps.cwd, file), 'utf8');
          } catch (e) {
            throw new UsageError(`--input ${file}: cannot read it (${(e as Error).message})`);
          }
        })();
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--input ${file}: not JSON (${(e as Error).message}); the body is sent as JSON`);
  }
}

async function prepare(o: Options, deps: CommandDeps): Promise<Change> {
  const host = await deps.host();
  const client = await deps.client(host);
  const asQuery = o.method === 'GET' || o.method === 'DELETE';
  const body =
    o.input !== undefined
      ? await readInput(o.input, deps)
      : !asQuery && o.fields.length
        ? Object.fromEntries(o.fields)
        : undefined;
  const query: Query | undefined =
    asQuery && o.fields.length ? Object.fromEntries(o.fields.map(([k, v]) => [k, String(v)])) : undefined;
  return {
    client,
    intent: `bbdc api ${o.method} ${o.path}`,
    host: host.url,
    target: { type: 'rest', id: o.path },
    request: { method: o.method, path: o.path, ...(query && { query }), ...(body !== undefined && { body }) },
    description: `${o.method} ${o.path}`,
    predicted: o.method === 'GET' ? 'no-op' : o.method === 'DELETE' ? 'delete' : 'update',
    reasons: [
      o.method === 'GET'
        ? 'a GET only reads'
        : 'a raw call: bbdc cannot tell what it changes or which permission the server will check',
    ],
  };
}

/** `bbdc api <path>`: one REST call (or, with --paginate, every page of a GET) and its answer. */
export const command = defineCommand<Options, unknown>({
  name: 'api',
  summary: 'Make a raw REST call to the server (like gh api)',
  description:
    'The path is under /rest/ (the prefix may be left out). --field name=value (-f, text) and -F (true, false, null and numbers as JSON) become the query of a GET or DELETE and the JSON body of other methods; --input sends a JSON file (- for stdin) as the body. The method defaults to GET, or POST when a body is given. --paginate follows nextPageStart and prints every value in one array.',
  args: [{ name: 'path', required: true, description: 'REST path, e.g. api/latest/projects/PROJ/repos' }],
  flags: {
    method: {
      type: 'string',
      shortFlag: 'X',
      value: 'METHOD',
      choices: methods,
      description: 'HTTP method (default GET, or POST with a body)',
    },
    field: {
      type: 'string',
      shortFlag: 'f',
      value: 'NAME=VALUE',
      isMultiple: true,
      description: 'A text parameter',
    },
    typedField: {
      type: 'string',
      shortFlag: 'F',
      value: 'NAME=VALUE',
      isMultiple: true,
      description: 'A parameter whose value is JSON when it is true, false, null or a number',
    },
    input: { type: 'string', value: 'FILE', description: 'Send this JSON file as the body (- reads stdin)' },
    paginate: {
      type: 'boolean',
      description: 'Follow every page of a paged GET; prints all values in one array',
    },
  },
  outputSchema: 'api',
  effect: 'mutating',
  examples: [
    'bbdc api api/latest/projects/PROJ/repos --paginate',
    'bbdc api api/latest/projects/PROJ/repos/api/labels -X POST -f name=backend --dry-run',
  ],
  parse: ({ args, flags }) => {
    const list = (v: unknown) => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);
    const fields = [
      ...list(flags.field).map((f) => parseField(f, '--field', false)),
      ...list(flags.typedField).map((f) => parseField(f, '-F', true)),
    ];
    const input = flags.input as string | undefined;
    if (input !== undefined && fields.length) throw new UsageError('pass --input or --field, not both');
    const explicit = flags.method === undefined ? undefined : String(flags.method).toUpperCase();
    if (explicit !== undefined && !methods.includes(explicit))
      throw new UsageError(`--method "${flags.method}" must be one of ${methods.join(', ')}`);
    const method = explicit ?? (input !== undefined || fields.length ? 'POST' : 'GET');
    const paginate = flags.paginate === true;
    if (paginate && method !== 'GET') throw new UsageError('--paginate follows the pages of a GET only');
    const paging = fields.find(([k]) => k === 'start' || k === 'limit');
    if (paginate && paging)
      throw new UsageError(
        `--paginate sets ${paging[0]} itself (pages of 1000 from the first); leave out --field ${paging[0]}`,
      );
    if (input !== undefined && (method === 'GET' || method === 'DELETE'))
      throw new UsageError(
        `--input sends a body, which a ${method} does not take here; use --field for its query`,
      );
    return { method, path: apiPath(args[0]), fields, input, paginate };
  },
  plan: async (o, deps) => planOf(await prepare(o, deps)),
  async run(o, deps) {
    const change = await prepare(o, deps);
    if (o.paginate)
      return (await collectPages<unknown>(change.client, o.path, change.request.query ?? {}, undefined))
        .values;
    const res = await change.client.request<unknown>(o.method, o.path, {
      query: change.request.query,
      body: change.request.body,
    });
    return res.data ?? null;
  },
  human(d, ui) {
    if (d === null || d === undefined) return;
    ui.line(typeof d === 'string' ? d.replace(/\n$/, '') : JSON.stringify(d, null, 2));
  },
});
