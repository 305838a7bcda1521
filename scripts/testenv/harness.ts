// The helper e2e suites use to get a ready environment. `npm run test:e2e` brings one up once for the whole run
// and passes it down through REALMFORGE_TESTENV_STATE; a suite run on its own starts a private one and tears it
// down when the process ends, even on failure.
import { mkdtempSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AppsV1Api,
  CoreV1Api,
  KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
} from '@kubernetes/client-node';
import { down, isUp, up } from './env.ts';
import { envVars, readState, type TestEnvState } from './state.ts';

/** A ready environment and clients for it, authenticated as the harness admin (system:masters). */
export type TestEnv = {
  state: TestEnvState;
  kubeconfig: KubeConfig;
  core: CoreV1Api;
  apps: AppsV1Api;
  objects: KubernetesObjectApi;
  /** Server-side applies an object (field manager realmforge-e2e, forced). */
  apply<T extends KubernetesObject>(object: T): Promise<T>;
  /** A raw API request as the admin (for query parameters the client lacks, such as fieldValidation=Strict). */
  request(
    method: string,
    path: string,
    body?: unknown,
    contentType?: string,
  ): Promise<{ status: number; body: any }>;
  /** Creates a namespace with a unique name starting with `prefix`; it is deleted by cleanup(). */
  namespace(prefix: string): Promise<string>;
  /** Deletes the namespaces this suite created. */
  cleanup(): Promise<void>;
};

let started: Promise<TestEnvState> | undefined;

async function ensureUp(): Promise<TestEnvState> {
  const state = readState();
  if (isUp(state)) return state;
  if (process.env.REALMFORGE_TESTENV_STATE && process.env.REALMFORGE_TESTENV_REQUIRED === '1') {
    throw new Error(`the test environment in ${process.env.REALMFORGE_TESTENV_STATE} is not running`);
  }
  // No environment: start a private one for this process and stop it when the process ends.
  process.env.REALMFORGE_TESTENV_STATE = join(mkdtempSync(join(tmpdir(), 'realmforge-suite-')), 'state.json');
  const log = (line: string) => process.stderr.write(`testenv: ${line}\n`);
  const teardown = () => down({ log }).catch((e) => log(`teardown failed: ${e}`));
  const onSignal = async () => {
    await teardown();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('beforeExit', teardown);
  const s = await up({ log }).catch(async (e) => {
    await teardown();
    throw e;
  });
  Object.assign(process.env, envVars(s));
  return s;
}

/** The ready environment (started on first call when none is up). */
export async function testEnv(): Promise<TestEnv> {
  started ??= ensureUp();
  const state = await started;
  const kubeconfig = new KubeConfig();
  kubeconfig.loadFromFile(state.kubeconfig);
  const objects = KubernetesObjectApi.makeApiClient(kubeconfig);
  const core = kubeconfig.makeApiClient(CoreV1Api);
  const namespaces: string[] = [];
  return {
    state,
    kubeconfig,
    core,
    apps: kubeconfig.makeApiClient(AppsV1Api),
    objects,
    apply: (object) =>
      objects.patch(object, undefined, undefined, 'realmforge-e2e', true, PatchStrategy.ServerSideApply),
    request: (method, path, body, contentType) => rawRequest(state, method, path, body, contentType),
    namespace: async (prefix) => {
      const name = `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
      await core.createNamespace({ body: { metadata: { name } } });
      namespaces.push(name);
      return name;
    },
    cleanup: async () => {
      for (const name of namespaces.splice(0)) await core.deleteNamespace({ name }).catch(() => undefined);
    },
  };
}

/** Polls `check` every 250 ms until it returns a value that is not undefined, or fails with `what` after `ms`. */
export async function eventually<T>(
  what: string,
  ms: number,
  check: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${ms / 1000} s waiting for ${what}${last ? `: ${(last as Error).message ?? last}` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Sends one request to the API server with the admin client certificate; the body is JSON-decoded when it can be. */
function rawRequest(state: TestEnvState, method: string, path: string, body?: unknown, contentType?: string) {
  const pki = join(state.runDir, 'pki');
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = httpsRequest(
      new URL(path, state.apiserverUrl),
      {
        method,
        ca: readFileSync(join(pki, 'ca.crt')),
        cert: readFileSync(join(pki, 'admin.crt')),
        key: readFileSync(join(pki, 'admin.key')),
        headers: payload ? { 'content-type': contentType ?? 'application/json' } : {},
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          text += d;
        });
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {}
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
