// Where the operator's API server is and how it proves who it is, from a kubeconfig (KUBECONFIG or --kubeconfig,
// merged the way kubectl merges a list of files) or from the in-cluster ServiceAccount. Bearer tokens read from a
// file are re-read once a minute, so a rotated projected ServiceAccount token is picked up without a restart; an
// `exec` credential plugin is run again before its token expires.
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import type { Clock } from '../../core/clock.ts';
import { UsageError } from '../../core/errors.ts';
import { checkFields } from './kube-config-fields.ts';
import { execToken, type RunExec, runExec } from './kube-exec-credential.ts';
import { impersonationHeaders } from './kube-impersonation.ts';
import { fileToken, inClusterAccess } from './kube-in-cluster.ts';
import { proxyFor } from './kube-proxy.ts';

/** How to reach and authenticate to one API server: TLS material (PEM) and the Authorization header. */
export type KubeAccess = {
  /** The API server's base URL, without a trailing slash. */
  readonly server: string;
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  readonly insecureSkipTlsVerify: boolean;
  readonly tlsServerName?: string;
  /** The proxy requests go through (http://, https:// or socks5://), from proxy-url or HTTPS_PROXY/NO_PROXY. */
  readonly proxy?: string;
  /** Impersonate-* headers from the user's as, as-groups, as-uid and as-user-extra. */
  readonly impersonation: Readonly<Record<string, string | string[]>>;
  /** The Authorization header value for the next request, if any (an exec plugin runs asynchronously). */
  authorization(): Promise<string | undefined>;
  /** Forgets a cached token (after a 401) so the next request reads it again. */
  refresh(): void;
  /** Where the settings came from, for messages: `kubeconfig <file> (context <name>)` or `in-cluster`. */
  readonly source: string;
};

/** Reads a file as UTF-8 text; injected so tests control the file system. */
export type ReadText = (path: string) => string;

type Named = { name?: string; [k: string]: unknown };
type Kubeconfig = {
  clusters: Named[];
  users: Named[];
  contexts: Named[];
  currentContext?: string;
};

function readKubeconfig(file: string, read: ReadText): Kubeconfig {
  let text: string;
  try {
    text = read(file);
  } catch (error) {
    throw new UsageError(
      `cannot read the kubeconfig ${file} (${(error as Error).message}): check KUBECONFIG`,
      {
        cause: error,
      },
    );
  }
  let doc: Record<string, unknown>;
  try {
    doc = (parse(text) ?? {}) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`the kubeconfig ${file} is not valid YAML: ${(error as Error).message}`, {
      cause: error,
    });
  }
  checkFields('config', doc, `the kubeconfig ${file}`);
  const list = (key: string) => {
    const value = doc[key] ?? [];
    if (!Array.isArray(value)) throw new UsageError(`the kubeconfig ${file}: ${key} must be a list`);
    // Relative file references are relative to the kubeconfig that names them.
    return value.map((entry: Named) => ({ ...entry, file }));
  };
  return {
    clusters: list('clusters'),
    users: list('users'),
    contexts: list('contexts'),
    currentContext: typeof doc['current-context'] === 'string' ? doc['current-context'] : undefined,
  };
}

/** Merges kubeconfigs as kubectl does: the first file to define a name or the current context wins. */
function merge(configs: Kubeconfig[]): Kubeconfig {
  const firstByName = (lists: Named[][]) => {
    const seen = new Map<string, Named>();
    for (const entry of lists.flat()) if (entry.name && !seen.has(entry.name)) seen.set(entry.name, entry);
    return [...seen.values()];
  };
  return {
    clusters: firstByName(configs.map((c) => c.clusters)),
    users: firstByName(configs.map((c) => c.users)),
    contexts: firstByName(configs.map((c) => c.contexts)),
    currentContext: configs.find((c) => c.currentContext)?.currentContext,
  };
}

/** Options for reading a kubeconfig: the exec runner, a context other than current-context, the proxy environment. */
export type KubeconfigOptions = { run?: RunExec; context?: string; env?: NodeJS.ProcessEnv };

/** The access described by the current context (or `options.context`) of the kubeconfig files `files`. */
export function kubeconfigAccess(
  files: readonly string[],
  read: ReadText,
  clock: Clock,
  options: KubeconfigOptions = {},
): KubeAccess {
  const config = merge(files.map((f) => readKubeconfig(f, read)));
  const where = `kubeconfig ${files.join(delimiter)}`;
  const contextName = options.context ?? config.currentContext;
  if (!contextName) {
    throw new UsageError(
      `${where} has no current-context: set one with kubectl config use-context <name> or --context`,
    );
  }
  const find = (list: Named[], name: unknown, what: string) => {
    const entry = list.find((e) => e.name === name);
    if (!entry) {
      const by = options.context ? '--context' : `context "${contextName}"`;
      throw new UsageError(
        what === 'context'
          ? `${where}: ${by} names context "${name}", which is not defined`
          : `${where}: context "${contextName}" names ${what} "${name}", which is not defined`,
      );
    }
    return entry;
  };
  const contextEntry = find(config.contexts, contextName, 'context');
  const context = checkFields('context', contextEntry.context, `${where}: context "${contextName}"`);
  const clusterEntry = find(config.clusters, context.cluster, 'the cluster');
  const source = `${where} (context ${contextName})`;
  const cluster = checkFields('cluster', clusterEntry.cluster, `${source}: cluster "${clusterEntry.name}"`);
  const userEntry = context.user ? find(config.users, context.user, 'the user') : undefined;
  const userWhere = `${source}: user "${userEntry?.name}"`;
  const user = checkFields('user', userEntry?.user, userWhere);
  const server = typeof cluster.server === 'string' ? cluster.server.replace(/\/+$/, '') : '';
  if (!/^https?:\/\//.test(server)) {
    throw new UsageError(`${source}: cluster "${clusterEntry.name}" has no https:// server URL`);
  }
  // A relative file reference is relative to the kubeconfig that names it, as in client-go.
  const beside = (entry: Named, path: string) =>
    isAbsolute(path) ? path : join(dirname(entry.file as string), path);
  // Inline data wins over a file reference, as in client-go.
  const material = (entry: Named, fields: Record<string, unknown>, data: string, file: string) => {
    if (typeof fields[data] === 'string')
      return Buffer.from(fields[data] as string, 'base64').toString('utf8');
    if (typeof fields[file] !== 'string') return undefined;
    const full = beside(entry, fields[file] as string);
    try {
      return read(full);
    } catch (error) {
      throw new UsageError(`${source}: cannot read ${file} ${full}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  };
  const ca = material(clusterEntry, cluster, 'certificate-authority-data', 'certificate-authority');
  const proxyUrl = typeof cluster['proxy-url'] === 'string' ? cluster['proxy-url'] : undefined;
  const tlsServerName =
    typeof cluster['tls-server-name'] === 'string' ? cluster['tls-server-name'] : undefined;
  const insecureSkipTlsVerify = cluster['insecure-skip-tls-verify'] === true;
  const staticToken = typeof user.token === 'string' ? user.token : undefined;
  const tokenFile =
    typeof user.tokenFile === 'string' && userEntry ? beside(userEntry, user.tokenFile) : undefined;
  const execInfo = () => ({
    server,
    'tls-server-name': tlsServerName,
    'insecure-skip-tls-verify': insecureSkipTlsVerify,
    'certificate-authority-data': ca === undefined ? undefined : Buffer.from(ca).toString('base64'),
    'proxy-url': proxyUrl,
    config: (cluster.extensions as Named[] | undefined)?.find(
      (e) => e.name === 'client.authentication.k8s.io/exec',
    )?.extension,
  });
  // client-go: the last value read from tokenFile takes precedence over token; exec is used when neither is set.
  const token = tokenFile
    ? fileToken(tokenFile, read, clock)
    : staticToken
      ? undefined
      : user.exec !== undefined
        ? execToken(
            user.exec,
            userEntry?.file as string,
            userWhere,
            options.run ?? runExec,
            clock,
            execInfo(),
          )
        : undefined;
  return {
    server,
    ca,
    cert: userEntry && material(userEntry, user, 'client-certificate-data', 'client-certificate'),
    key: userEntry && material(userEntry, user, 'client-key-data', 'client-key'),
    insecureSkipTlsVerify,
    tlsServerName,
    proxy: proxyFor(server, proxyUrl, options.env ?? {}, source),
    impersonation: impersonationHeaders(user, userWhere),
    authorization: async () => (token ? token.authorization() : staticToken && `Bearer ${staticToken}`),
    refresh: () => token?.refresh(),
    source,
  };
}

function readable(file: string, read: ReadText): boolean {
  try {
    read(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * The access the operator runs with, in client-go's order: --kubeconfig, then KUBECONFIG, then the in-cluster
 * config when KUBERNETES_SERVICE_HOST is set, then ~/.kube/config. `context` (--context) picks a context other
 * than the kubeconfig's current-context.
 */
export function loadKubeAccess(
  options: { kubeconfig?: string; context?: string; env: NodeJS.ProcessEnv },
  read: ReadText,
  clock: Clock,
  run: RunExec = runExec,
): KubeAccess {
  const { env } = options;
  const settings = { run, context: options.context, env };
  if (options.kubeconfig) return kubeconfigAccess([options.kubeconfig], read, clock, settings);
  const listed = (env.KUBECONFIG ?? '').split(delimiter).filter(Boolean);
  if (listed.length) {
    // Like kubectl, files in KUBECONFIG that do not exist are skipped.
    const present = listed.filter((file) => readable(file, read));
    if (!present.length) {
      throw new UsageError(
        `none of the KUBECONFIG files exist (${listed.join(delimiter)}): check KUBECONFIG`,
      );
    }
    return kubeconfigAccess(present, read, clock, settings);
  }
  if (env.KUBERNETES_SERVICE_HOST && !options.context) return inClusterAccess(env, read, clock);
  const home = env.HOME || homedir();
  const file = join(home, '.kube', 'config');
  if (!readable(file, read)) {
    throw new UsageError(
      options.context
        ? `--context ${options.context} needs a kubeconfig: set KUBECONFIG or --kubeconfig (${file} does not exist)`
        : 'no Kubernetes configuration: set KUBECONFIG or --kubeconfig, or run inside a cluster (KUBERNETES_SERVICE_HOST)',
    );
  }
  return kubeconfigAccess([file], read, clock, settings);
}
