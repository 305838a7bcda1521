// The helper e2e suites use to get a ready environment. `npm run test:e2e` brings one up once for the whole run
// and passes it down through REALMFORGE_TESTENV_STATE; a suite run on its own starts a private one and tears it
// down when the process ends, even on failure.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AppsV1Api,
  CoreV1Api,
  KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
} from '@kubernetes/client-node';
import { down, isUp, up } from './env.ts';
import { applyAt, kubeRequest, restPath } from './kube-request.ts';
import { envVars, readState, type TestEnvState } from './state.ts';

/** A ready environment and clients for it, authenticated as the harness admin (system:masters). */
export type TestEnv = {
  state: TestEnvState;
  kubeconfig: KubeConfig;
  core: CoreV1Api;
  apps: AppsV1Api;
  objects: KubernetesObjectApi;
  /** Server-side applies an object with strict field validation (field manager realmforge-e2e, forced). */
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
/** The state file `started` belongs to: a caller that points REALMFORGE_TESTENV_STATE elsewhere gets that one. */
let startedFor: string | undefined;

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
  if (!started || startedFor !== process.env.REALMFORGE_TESTENV_STATE) {
    started = ensureUp();
    startedFor = process.env.REALMFORGE_TESTENV_STATE; // ensureUp names a private environment synchronously
  }
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
    apply: async (object) => {
      const res = await applyAt(
        state.kubeconfig,
        await restPath(state.kubeconfig, object),
        object,
        'realmforge-e2e',
      );
      if (res.status >= 300)
        throw new Error(
          `apply ${object.kind} ${object.metadata?.name}: ${res.status} ${res.body?.message ?? ''}`,
        );
      return res.body;
    },
    request: (method, path, body, contentType) =>
      kubeRequest(state.kubeconfig, method, path, body, contentType),
    namespace: async (prefix) => {
      const name = `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
      await core.createNamespace({ body: { metadata: { name } } });
      namespaces.push(name);
      return name;
    },
    cleanup: async () => {
      for (const name of namespaces.splice(0)) {
        await deleteResources(state.kubeconfig, name);
        await core.deleteNamespace({ name }).catch(() => undefined);
      }
    },
  };
}

/** Deletes the realmforge resources left in `namespace` at once, taking the operator's finalizer off them: the
 * operator that would release it has stopped. Left to the namespace's deletion, they would live on for a while, and
 * the next suite's operator would take them up against a Keycloak that is gone (failed calls in its metrics). */
async function deleteResources(kubeconfig: string, namespace: string): Promise<void> {
  for (const plural of ['identityclients', 'identityrealms', 'identityservers']) {
    const path = `/apis/realmforge.dev/v1/namespaces/${namespace}/${plural}`;
    await kubeRequest(kubeconfig, 'DELETE', path).catch(() => undefined);
    const list = await kubeRequest(kubeconfig, 'GET', path).catch(() => undefined);
    for (const item of (list?.body?.items ?? []) as { metadata: { name: string; finalizers?: string[] } }[]) {
      const kept = (item.metadata.finalizers ?? []).filter((f) => f !== 'realmforge.dev/cleanup');
      const patch = { metadata: { finalizers: kept.length ? kept : null } };
      await kubeRequest(
        kubeconfig,
        'PATCH',
        `${path}/${item.metadata.name}`,
        patch,
        'application/merge-patch+json',
      );
    }
  }
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
