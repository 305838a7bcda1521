// The set-up every operator e2e suite shares: the environment, the install RBAC, a namespace the operator may read
// Secrets in (with the database cluster `pg`), the operator running under its ServiceAccount, optionally the
// IdentityServer `idp` until Ready (deployed, or the environment's own Keycloak as an existing one); and one
// clean-up that stops every operator it started, runs what the suite added, then removes the environment's
// namespaces. A set-up that fails half way cleans up what it made.
import { type TestEnv, testEnv } from '../../../scripts/testenv/harness.ts';
import { databaseCluster, identityServer, waitStatus } from '../../../scripts/testenv/identity-fixtures.ts';
import {
  grantSecretAccess,
  installOperatorRbac,
  type OperatorProcess,
  startOperator,
} from '../../../scripts/testenv/operator-process.ts';
import { harnessServer } from './harness-server.ts';
import { type KeycloakAdmin, keycloakAdmin } from './keycloak-admin.ts';

type StartOptions = NonNullable<Parameters<typeof startOperator>[1]>;

export type SuiteOptions = {
  /** The CNPG stand-in `pg` in the suite's namespace (default true). */
  database?: boolean;
  /** What must exist before the operator starts (a fault proxy in front of the suite's Keycloak, a realm made by
   * hand); returns the operator's start options. */
  beforeStart?: (suite: OperatorSuite) => Promise<StartOptions | undefined>;
  /** Starts the first operator (default true); false: the suite starts its own with `suite.startOperator`. */
  startOperator?: boolean;
  /** The IdentityServer `idp` on `pg`, with these spec fields, waited for until Ready; or `'harness'`: the
   * environment's own Keycloak as `idp` (spec.external, helpers/harness-server.ts), for a suite whose subject is
   * realms and clients, not the server. */
  server?: Record<string, unknown> | 'harness';
};

export type OperatorSuite = {
  env: TestEnv;
  /** The suite's namespace: the database cluster and the server live here. */
  ns: string;
  /** The first operator started (undefined with `startOperator: false`). */
  operator: OperatorProcess;
  /** The admin API of the server `idp` (with `server`), as its bootstrap admin. */
  keycloak: KeycloakAdmin;
  /** A further namespace named from `prefix`; the operator may read its Secrets unless `secrets` is false. */
  namespace(prefix: string, options?: { secrets?: boolean }): Promise<string>;
  /** Starts another operator process; `close` stops it too. */
  startOperator(options?: StartOptions): Promise<OperatorProcess>;
  /** Runs `step` during `close`, after the operators stopped and before the namespaces go. */
  onClose(step: () => Promise<unknown> | unknown): void;
  /** Stops every operator started (with `signal`), runs the suite's steps, removes the namespaces. */
  close(signal?: NodeJS.Signals): Promise<void>;
};

/** Makes the suite's world: the namespace `<prefix>-*` and what `options` ask for (see SuiteOptions). */
export async function operatorSuite(prefix: string, options: SuiteOptions = {}): Promise<OperatorSuite> {
  const env = await testEnv();
  const operators: OperatorProcess[] = [];
  const steps: (() => Promise<unknown> | unknown)[] = [];
  const suite = {
    env,
    ns: '',
    operator: undefined as unknown as OperatorProcess,
    keycloak: undefined as unknown as KeycloakAdmin,
    async namespace(name: string, { secrets = true } = {}) {
      const ns = await env.namespace(name);
      if (secrets) await grantSecretAccess(env, ns);
      return ns;
    },
    async startOperator(start: StartOptions = {}) {
      const operator = await startOperator(env, start);
      operators.push(operator);
      return operator;
    },
    onClose: (step) => {
      steps.push(step);
    },
    async close(signal) {
      for (const operator of operators) await operator.stop(signal);
      for (const step of steps.reverse()) await step();
      await env.cleanup();
    },
  } satisfies OperatorSuite;
  try {
    await installOperatorRbac(env);
    suite.ns = await suite.namespace(prefix);
    const harness = options.server === 'harness' ? await harnessServer(env) : undefined;
    if (harness) suite.onClose(() => harness.forget(suite.ns));
    if (options.database !== false) await databaseCluster(env, suite.ns, 'pg');
    const start = await options.beforeStart?.(suite);
    if (options.startOperator !== false) suite.operator = await suite.startOperator(start);
    const server = options.server;
    if (server) {
      if (server === 'harness') await harness?.apply(suite.ns, 'idp');
      else await env.apply(identityServer(suite.ns, 'idp', 'pg', server) as never);
      suite.keycloak = harness?.admin ?? keycloakAdmin(env, suite.ns);
      const ready = (s: { phase?: string }) => s.phase === 'Ready';
      await waitStatus(env, 'identityservers', suite.ns, 'idp', 600_000, ready, 'to be Ready');
    }
  } catch (error) {
    // uvu does not print a hook's error: say what failed before rethrowing it.
    console.error(`the ${prefix} suite could not set up: ${(error as Error).stack ?? error}`);
    await suite.close('SIGKILL');
    throw error;
  }
  return suite;
}
