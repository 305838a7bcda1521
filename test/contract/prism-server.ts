// Prism (Stoplight's mock server, written by nobody on this project) serving Atlassian's Bitbucket DC 9.4 OpenAPI
// document with request validation, behind a small recording proxy: bbdc's `/rest/...` paths are mapped onto the
// document's server base (`{baseurl}/rest`), every answer carries X-AUSERNAME as live servers' do, and Prism's
// verdicts on each request (an undocumented operation, a request violation) are collected.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { allowedQuery, allowedUndocumented } from '../fake-bitbucket/deviations.ts';
import { compileTemplate, documentPath, loadOperations, matchOperation } from '../fake-bitbucket/openapi.ts';

/** The Prism CLI: the devDependency, or PRISM_CLI (a path to @stoplight/prism-cli/dist/index.js). */
export function prismCli(): string | undefined {
  if (process.env.PRISM_CLI) return process.env.PRISM_CLI;
  try {
    return createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');
  } catch {
    return undefined;
  }
}

/** One request bbdc sent, with what Prism made of it. */
export type Checked = {
  method: string;
  path: string;
  status: number;
  violations: string[];
  unanswered?: string;
  /** The request body bbdc sent and the answer it got, as text. */
  sent: string;
  answer: string;
};

/** A running Prism and its proxy. */
export type Prism = { url: string; checked: Checked[]; close(): Promise<void> };

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

function spawnPrism(cli: string, port: number, dynamic: boolean, seed: string): Promise<ChildProcess> {
  const args = [cli, 'mock', '-h', '127.0.0.1', '-p', String(port), '-v', 'warn', documentPath];
  if (dynamic) args.push('-d', '--seed', seed);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start in 120 s:\n${log}`)), 120_000);
    const probe = setInterval(() => {
      const req = request({ host: '127.0.0.1', port, path: '/api/latest/application-properties' }, (res) => {
        res.resume();
        clearInterval(probe);
        clearTimeout(timer);
        resolve(child);
      });
      req.on('error', () => {});
      req.end();
    }, 500);
    child.stdout?.on('data', (d) => {
      log += d;
    });
    child.stderr?.on('data', (d) => {
      log += d;
    });
    child.on('exit', (code) => {
      clearInterval(probe);
      clearTimeout(timer);
      reject(new Error(`Prism exited with ${code}:\n${log}`));
    });
  });
}

const requestProblems = [
  'NO_PATH_MATCHED_ERROR',
  'NO_METHOD_MATCHED_ERROR',
  'UNPROCESSABLE_ENTITY',
  'INVALID_CONTENT_TYPE',
  'NOT_ACCEPTABLE',
  'VIOLATIONS',
];
const operations = loadOperations(documentPath);

/**
 * Prism matches a path parameter as one segment, but the document's `{path}` (a file path in a repository) spans
 * several, as on live servers; such a request is sent to Prism with the parameter's slashes encoded, so Prism can
 * still route and check it. Other paths go through unchanged.
 */
function forPrism(method: string, path: string): string {
  const match = matchOperation(operations, method, path);
  if (!match?.op.pathParams.includes('path')) return path;
  const raw = match.op.pattern.exec(path)![match.op.pathParams.indexOf('path') + 1];
  return path.endsWith(raw) ? `${path.slice(0, -raw.length)}${raw.replaceAll('/', '%2F')}` : path;
}

const undocumented = allowedUndocumented().map((d) => ({
  ...d,
  pattern: compileTemplate(d.template).pattern,
}));

/** What Prism said about a request: its own error answers (no such operation, invalid request) and violations. */
function verdict(status: number, headers: Record<string, unknown>, body: string): string[] {
  const found: string[] = [];
  const header = headers['sl-violations'];
  if (typeof header === 'string') {
    try {
      for (const v of JSON.parse(header) as { location?: string[]; message: string; severity: string }[])
        if (v.location?.[0] === 'request' && v.severity === 'Error')
          found.push(`${v.location.join('.')}: ${v.message}`);
    } catch {
      found.push(`request: ${header.slice(0, 300)}`);
    }
  }
  if (String(headers['content-type'] ?? '').includes('problem+json')) {
    try {
      const problem = JSON.parse(body) as { type?: string; title?: string; detail?: string };
      const kind = problem.type?.split('#')[1] ?? '';
      // Only Prism's verdicts on the request count; an answer it cannot generate (no schema in the document for
      // that response) is the document's gap, reported by the suite as "unanswered", not bbdc's violation.
      if (requestProblems.includes(kind))
        found.push(`${problem.title} (${status}): ${problem.detail ?? ''}`.trim());
    } catch {}
  }
  return found;
}

/** Starts Prism (static examples, or dynamic answers with `seed`) and the proxy bbdc talks to. */
export async function startPrism(options: {
  dynamic: boolean;
  seed?: string;
  username: string;
}): Promise<Prism> {
  const cli = prismCli();
  if (!cli || !existsSync(cli))
    throw new Error(
      '@stoplight/prism-cli is not installed: run `npm ci` (it is a devDependency) or set PRISM_CLI',
    );
  const prismPort = await freePort();
  const child = await spawnPrism(cli, prismPort, options.dynamic, options.seed ?? '1');
  const checked: Checked[] = [];
  const proxy: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const entry: Checked = {
      method: req.method ?? 'GET',
      path: url.pathname,
      status: 0,
      violations: [],
      sent: '',
      answer: '',
    };
    checked.push(entry);
    if (!url.pathname.startsWith('/rest/')) {
      entry.violations.push(`${entry.method} ${url.pathname} is outside the REST API`);
      res.writeHead(404).end();
      return;
    }
    const restPath = url.pathname.slice('/rest'.length);
    const op = matchOperation(operations, entry.method, restPath)?.op;
    // An operation the document lacks but a deviation allows (with evidence) cannot be asked of Prism: it is
    // answered as a server without it would (404), so the command's handling of that is what gets checked.
    const deviation = op
      ? undefined
      : undocumented.find((d) => d.method === entry.method && d.pattern.test(restPath));
    if (deviation) {
      entry.status = 404;
      entry.unanswered = `not in the document (deviation ${deviation.name})`;
      res.writeHead(404, { 'content-type': 'application/json', 'x-ausername': options.username }).end(
        JSON.stringify({
          errors: [{ message: `${entry.method} ${url.pathname} is not in the 9.4 document` }],
        }),
      );
      return;
    }
    for (const q of new Set(url.searchParams.keys()))
      if (op && !op.query.includes(q) && !allowedQuery(op.operationId).includes(q))
        entry.violations.push(
          `query parameter ${q} is not declared for ${op.operationId} (nor allowed by a deviation)`,
        );
    const upstream = request(
      {
        host: '127.0.0.1',
        port: prismPort,
        method: req.method,
        path: `${forPrism(entry.method, url.pathname.slice('/rest'.length))}${url.search}`,
        headers: { ...req.headers, host: `127.0.0.1:${prismPort}` },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          entry.status = answer.statusCode ?? 0;
          entry.answer = body;
          entry.violations.push(...verdict(entry.status, answer.headers, body));
          if (entry.status >= 500) entry.unanswered = body.slice(0, 200);
          const headers = { ...answer.headers, 'x-ausername': options.username };
          delete headers['content-length'];
          delete headers['transfer-encoding'];
          res.writeHead(entry.status, headers).end(body);
        });
      },
    );
    upstream.on('error', (e) => {
      entry.violations.push(`proxy: ${e.message}`);
      res.writeHead(502).end();
    });
    req.on('data', (c: Buffer) => {
      entry.sent += c.toString('utf8');
    });
    req.pipe(upstream);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    checked,
    async close() {
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
      child.removeAllListeners('exit');
      child.kill();
    },
  };
}
