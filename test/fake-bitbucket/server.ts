// A fake Bitbucket Data Center on 127.0.0.1: Bitbucket's paging, errors, auth, XSRF check and rate limiting,
// with every request checked against the 9.4 OpenAPI document.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { allowedQuery, allowedUndocumented } from './deviations.ts';
import { compileTemplate, loadOperations, matchOperation } from './openapi.ts';
import { documentedPermissions } from './route-permissions.ts';
import { bitbucketError, type RouteContext, type RouteResult, type RouteTable } from './route-types.ts';
import { accessTokenRoutes } from './routes/access-tokens.ts';
import { branchModelRoutes } from './routes/branch-model.ts';
import { branchRestrictionRoutes } from './routes/branch-restrictions.ts';
import { buildStatsRoutes } from './routes/build-stats.ts';
import { buildRoutes } from './routes/builds.ts';
import { bulkRoutes } from './routes/bulk.ts';
import { commitCommentRoutes } from './routes/commit-comments.ts';
import { contentRoutes } from './routes/content.ts';
import { coreRoutes } from './routes/core.ts';
import { defaultTaskRoutes } from './routes/default-tasks.ts';
import { deploymentRoutes } from './routes/deployments.ts';
import { gpgKeyRoutes } from './routes/gpg-keys.ts';
import { hookScriptRoutes } from './routes/hook-scripts.ts';
import { hookWebhookRoutes } from './routes/hooks-webhooks.ts';
import { insightsRoutes } from './routes/insights.ts';
import { checkPermission } from './routes/lookup.ts';
import { projectRepoRoutes } from './routes/projects-repos.ts';
import { pullRequestCodeRoutes } from './routes/pull-request-code.ts';
import { pullRequestCommentRoutes } from './routes/pull-request-comments.ts';
import { pullRequestRoutes } from './routes/pull-requests.ts';
import { rawDiffRoutes } from './routes/raw-diff.ts';
import { reactionRoutes } from './routes/reactions.ts';
import { repoAdminRoutes } from './routes/repo-admin.ts';
import { repoSettingsRoutes } from './routes/repo-settings.ts';
import { reviewLoopRoutes } from './routes/review-loop.ts';
import { conditionRoutes, reviewerGroupRoutes } from './routes/reviewer-groups.ts';
import { sshKeyRoutes } from './routes/ssh-keys.ts';
import { webhookStatsRoutes } from './routes/webhook-stats.ts';
import { type FakeState, type FakeUser, largeState, smallState } from './state.ts';

/** A request the fake received, as tests inspect it. */
export type RecordedRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** The JSON body as sent (a string when it was not JSON), undefined when empty. */
  body?: unknown;
  operationId?: string;
  /** When the request arrived and when its answer was sent (performance.now()): overlapping requests were concurrent. */
  receivedAt?: number;
  answeredAt?: number;
};

/**
 * An answer to force on the next matching requests (e.g. 500, or 429 with Retry-After), after letting `after` of them
 * through (page 2 of a list); `drop` sends the real answer's headers and half its body, then drops the connection.
 */
export type InjectedFailure = {
  status: number;
  times: number;
  method?: string;
  retryAfter?: string;
  after?: number;
  drop?: boolean;
  /** Only requests whose path contains this. */
  path?: string;
};

/** A running fake server. */
export type FakeBitbucket = {
  url: string;
  state: FakeState;
  requests: RecordedRequest[];
  /** Requests the OpenAPI document does not describe, or that miss a required parameter; must stay empty. */
  violations: string[];
  /** Forces the next `times` requests (of `method`, if given) to fail with `status`. */
  inject(failure: InjectedFailure): void;
  /** Answers the next `times` requests with 429 and Retry-After: `seconds`. */
  rateLimit(times: number, seconds: number): void;
  close(): Promise<void>;
};

const operations = loadOperations();
/** The path parameters of an undocumented operation a deviation allows, read from its template. */
function deviationParams(
  d: { pattern: RegExp; pathParams: string[] },
  restPath: string,
): Record<string, string> {
  const m = d.pattern.exec(restPath)!;
  return Object.fromEntries(d.pathParams.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
}

const defaultRoutes: RouteTable = {
  ...projectRepoRoutes,
  ...hookWebhookRoutes,
  ...pullRequestRoutes,
  ...pullRequestCommentRoutes,
  ...pullRequestCodeRoutes,
  ...buildRoutes,
  ...repoSettingsRoutes,
  ...bulkRoutes,
  ...coreRoutes,
  ...reviewLoopRoutes,
  ...contentRoutes,
  ...buildStatsRoutes,
  ...insightsRoutes,
  ...deploymentRoutes,
  ...sshKeyRoutes,
  ...accessTokenRoutes,
  ...gpgKeyRoutes,
  ...rawDiffRoutes,
  ...repoAdminRoutes,
  ...webhookStatsRoutes,
  ...commitCommentRoutes,
  ...defaultTaskRoutes,
  ...branchRestrictionRoutes,
  ...branchModelRoutes,
  ...reviewerGroupRoutes,
  ...reactionRoutes,
  ...conditionRoutes,
  ...hookScriptRoutes,
};

function authenticate(req: IncomingMessage, state: FakeState): FakeUser | undefined | 'invalid' {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const [scheme, value = ''] = header.split(' ');
  if (scheme === 'Bearer') return state.users.find((u) => u.tokens.includes(value)) ?? 'invalid';
  if (scheme === 'Basic') {
    const [name, ...rest] = Buffer.from(value, 'base64').toString('utf8').split(':');
    const user = state.users.find((u) => u.name === name);
    return user && user.password === rest.join(':') ? user : 'invalid';
  }
  return 'invalid';
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Starts the fake with a data set (`small`, or `large` with 5,000 repositories) and optional extra routes. */
export async function startFakeBitbucket(
  options: {
    dataset?: 'small' | 'large';
    routes?: RouteTable;
    sshHost?: string;
    tls?: { key: string; cert: string };
    /** Milliseconds added before every answer, as a distant server's round trip (the wall-time bench). */
    latencyMs?: number;
    /** Serves git's smart HTTP under /scm/ (clone tests); without it such requests are violations. */
    git?: (req: IncomingMessage, res: ServerResponse) => void;
  } = {},
): Promise<FakeBitbucket> {
  const state = options.dataset === 'large' ? largeState() : smallState();
  const routes = { ...defaultRoutes, ...options.routes };
  const requests: RecordedRequest[] = [];
  const violations: string[] = [];
  const failures: InjectedFailure[] = [];
  const dropped = new WeakSet<ServerResponse>();
  const records = new WeakMap<ServerResponse, RecordedRequest>();
  const allowed = allowedUndocumented().map((a) => ({ ...a, ...compileTemplate(a.template) }));
  let baseUrl = '';

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<RouteResult> {
    const url = new URL(req.url ?? '/', baseUrl);
    const method = req.method ?? 'GET';
    const record: RecordedRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      receivedAt: performance.now(),
    };
    requests.push(record);
    records.set(res, record);
    const body = await readBody(req);
    record.body = body;
    const restPath = url.pathname.replace(/^\/rest(?=\/)/, '');
    const match = url.pathname.startsWith('/rest/')
      ? matchOperation(operations, method, restPath)
      : undefined;
    const deviation = match
      ? undefined
      : allowed.find((a) => a.method === method && a.pattern.test(restPath));
    if (!match && !deviation) {
      violations.push(
        `${method} ${url.pathname}: no such operation in the Bitbucket DC 9.4 OpenAPI document`,
      );
      return bitbucketError(404, `fake-bitbucket: ${method} ${url.pathname} is not a documented operation`);
    }
    const operationId = match?.op.operationId ?? deviation!.name;
    record.operationId = operationId;
    for (const q of match?.op.requiredQuery ?? []) {
      if (!url.searchParams.has(q))
        violations.push(`${method} ${url.pathname}: missing required query parameter ${q}`);
    }
    for (const q of new Set(url.searchParams.keys())) {
      if (match && !match.op.query.includes(q) && !allowedQuery(operationId).includes(q))
        violations.push(
          `${method} ${url.pathname}: query parameter ${q} is not declared for ${operationId} (nor allowed by a deviation)`,
        );
    }
    const failure = failures.find(
      (f) => f.times > 0 && (!f.method || f.method === method) && (!f.path || url.pathname.includes(f.path)),
    );
    if (failure?.after) failure.after--;
    else if (failure?.drop) {
      failure.times--;
      dropped.add(res);
    } else if (failure) {
      failure.times--;
      const result = bitbucketError(
        failure.status,
        failure.status === 429 ? 'Rate limit exceeded.' : 'Injected failure.',
      );
      if (failure.retryAfter) result.headers = { 'retry-after': failure.retryAfter };
      return result;
    }
    const user = authenticate(req, state);
    if (user === 'invalid') {
      return bitbucketError(
        401,
        'Authentication failed. Please check your credentials and try again.',
        'com.atlassian.bitbucket.auth.IncorrectPasswordAuthenticationException',
      );
    }
    if (user) res.setHeader('X-AUSERNAME', user.name);
    if (!['GET', 'HEAD', 'OPTIONS'].includes(method) && req.headers['x-atlassian-token'] !== 'no-check') {
      return bitbucketError(403, 'XSRF check failed', 'com.atlassian.bitbucket.XsrfException');
    }
    const route = routes[operationId];
    if (!route) {
      violations.push(
        `${method} ${url.pathname}: the fake does not implement ${operationId} yet (add it to a route table)`,
      );
      return bitbucketError(501, `fake-bitbucket does not implement ${operationId}`);
    }
    if (route.auth === 'required' && !user) {
      return bitbucketError(
        401,
        'You are not permitted to access this resource',
        'com.atlassian.bitbucket.AuthorisationException',
      );
    }
    const ctx: RouteContext = {
      params: match?.params ?? deviationParams(deviation!, restPath),
      query: url.searchParams,
      body,
      user,
      state,
      baseUrl,
      sshHost: options.sshHost ?? 'git.example.test:7999',
    };
    const refused = checkPermission(ctx, route.permission ?? documentedPermissions[operationId]);
    return refused ?? route.handle(ctx);
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    if (options.git && req.url?.startsWith('/scm/')) {
      requests.push({
        method: req.method ?? 'GET',
        path: req.url.split('?')[0],
        query: new URLSearchParams(),
        headers: req.headers,
      });
      options.git(req, res);
      return;
    }
    handle(req, res).then(
      async (result) => {
        if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
        const record = records.get(res);
        if (record) record.answeredAt = performance.now();
        if (dropped.has(res)) {
          const text = JSON.stringify(result.body ?? {});
          res.writeHead(result.status, { 'content-type': 'application/json;charset=UTF-8' });
          res.write(text.slice(0, text.length >> 1), () => res.destroy());
          return;
        }
        if (result.raw) {
          res.writeHead(result.status, { 'content-type': 'application/octet-stream', ...result.headers });
          res.end(result.raw);
          return;
        }
        res.writeHead(result.status, { 'content-type': 'application/json;charset=UTF-8', ...result.headers });
        res.end(result.body === undefined ? '' : JSON.stringify(result.body));
      },
      (error: Error) => {
        violations.push(`fake-bitbucket crashed: ${error.stack}`);
        res.writeHead(500).end();
      },
    );
  };
  const server = options.tls ? createTlsServer(options.tls, listener) : createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `${options.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    state,
    requests,
    violations,
    inject: (failure) => failures.push({ ...failure }),
    rateLimit: (times, seconds) => failures.push({ status: 429, times, retryAfter: String(seconds) }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
