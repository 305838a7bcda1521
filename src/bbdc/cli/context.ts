import { readFileSync } from 'node:fs';
import type { BbdcConfig } from '../../../generated/types/cli/config.ts';
import { UsageError } from '../../core/errors.ts';
import { interactiveRetryBudgetMs } from '../../core/retry.ts';
import { type AcceptedWrite, type Credentials, checkHeaderValue, createClient } from '../api/client.ts';
import type { Transport } from '../api/transport-types.ts';
import type { CommandDeps, GlobalOptions, RepoContext, ResolvedHost } from '../command.ts';
import { type ConfigStore, configStoreFor } from '../config/config-store.ts';
import { pickRemote, type RemoteRepo, remoteRepos } from '../config/git-context.ts';
import { findHost, normalizeHostUrl } from '../config/hosts.ts';
import { configDir, configFile, secretsFile } from '../config/paths.ts';
import type { Deps } from '../deps.ts';
import type { Logger } from '../output/logger.ts';
import type { Ui } from '../output/ui.ts';
import { parseRepoFlag } from './repo-flag.ts';

/** CommandDeps for one command run; a read-only command without a config file loads no YAML code. */
export async function createCommandDeps(
  deps: Deps,
  globals: GlobalOptions,
  logger: Logger,
  ui: Ui,
  mayWrite: boolean,
) {
  const store = await configStoreFor(configFile(configDir(deps.env, deps.homeDir)), mayWrite);
  return buildCommandDeps(deps, globals, logger, ui, store);
}

/** Builds the per-run CommandDeps; `accepted` lists the writes the server accepted; `dispose` closes the HTTP transport. */
export function buildCommandDeps(
  deps: Deps,
  globals: GlobalOptions,
  logger: Logger,
  ui: Ui,
  store: ConfigStore,
) {
  const dir = configDir(deps.env, deps.homeDir);
  const configPath = configFile(dir);
  const secretsPath = secretsFile(dir);
  const repoFlag = globals.repo ? parseRepoFlag(globals.repo) : undefined;
  let config: BbdcConfig | undefined;
  let transport: Promise<Transport> | undefined;
  let remotes: Promise<RemoteRepo[]> | undefined;
  const announced = new Set<string>();
  const accepted: AcceptedWrite[] = [];

  const announce = (r: RemoteRepo, what: 'repo' | 'host') => {
    if (announced.size) return;
    announced.add(r.remote);
    const subject = what === 'repo' ? `${r.project}/${r.slug} on ${r.hostUrl}` : `server ${r.hostUrl}`;
    ui.notice(`Using ${subject} from git remote "${r.remote}"`);
  };
  const gitRepos = () => {
    remotes ??= remoteRepos(deps.git, deps.cwd, cd.config());
    return remotes;
  };

  async function credentialsFor(
    url: string,
  ): Promise<Pick<ResolvedHost, 'url' | 'stored' | 'credentials' | 'credentialSource'>> {
    const match = findHost(cd.config(), url);
    const baseUrl = match?.matchedBy === 'alias' ? match.host.url : url;
    if (deps.env.BBDC_TOKEN) {
      logger.redact(deps.env.BBDC_TOKEN);
      checkHeaderValue('BBDC_TOKEN', deps.env.BBDC_TOKEN);
      return {
        url: baseUrl,
        stored: match?.host,
        credentials: { token: deps.env.BBDC_TOKEN, username: deps.env.BBDC_USERNAME },
        credentialSource: 'env',
      };
    }
    if (deps.env.BBDC_USERNAME && deps.env.BBDC_PASSWORD) {
      logger.redact(deps.env.BBDC_PASSWORD);
      return {
        url: baseUrl,
        stored: match?.host,
        credentials: { username: deps.env.BBDC_USERNAME, password: deps.env.BBDC_PASSWORD },
        credentialSource: 'env',
      };
    }
    if (!match) return { url: baseUrl };
    const stored = match.host;
    const secret = await (await cd.secrets()).load(stored.url, stored.secretStorage);
    logger.redact(secret);
    if (secret === undefined) return { url: baseUrl, stored };
    const credentials: Credentials =
      stored.authMode === 'basic'
        ? { username: stored.username, password: secret }
        : { token: secret, username: stored.username };
    if (credentials.token)
      checkHeaderValue(
        `the token stored for ${stored.url} (run \`bbdc auth login ${stored.url}\` again)`,
        secret,
      );
    return { url: baseUrl, stored, credentials, credentialSource: stored.secretStorage ?? 'file' };
  }

  async function hostFromGit(): Promise<string | undefined> {
    const repos = await gitRepos();
    const hosts = new Set(repos.map((r) => r.hostUrl));
    if (hosts.size !== 1) return undefined;
    announce(repos[0], 'host');
    return repos[0].hostUrl;
  }

  const cd: CommandDeps = {
    ...deps,
    globals,
    logger,
    ui,
    configPath,
    secretsPath,
    config() {
      config ??= store.load();
      return config;
    },
    saveConfig(next) {
      store.save(next);
      config = next;
    },
    async secrets() {
      const keyring = await deps.keyring().catch(() => undefined);
      const { createSecretStore } = await import('../config/secret-store.ts');
      return createSecretStore(keyring, secretsPath);
    },
    async host() {
      const flagHost = globals.host ?? repoFlag?.host;
      let url: string | undefined;
      let source: ResolvedHost['source'] = 'flag';
      if (flagHost) url = normalizeHostUrl(flagHost, globals.host ? '--host' : '-R/--repo');
      else if (deps.env.BBDC_URL) [url, source] = [normalizeHostUrl(deps.env.BBDC_URL, 'BBDC_URL'), 'env'];
      else {
        url = await hostFromGit();
        source = 'git';
        if (!url && cd.config().defaultHost) [url, source] = [cd.config().defaultHost, 'config'];
      }
      if (!url) {
        throw new UsageError(
          'no Bitbucket server chosen: pass --host, set BBDC_URL, run inside a clone, or run `bbdc auth login <host>`',
        );
      }
      return { source, ...(await credentialsFor(url)) };
    },
    async repo(): Promise<RepoContext> {
      if (repoFlag)
        return { host: await cd.host(), project: repoFlag.project, slug: repoFlag.slug, source: 'flag' };
      if (deps.env.BBDC_PROJECT && deps.env.BBDC_REPO) {
        const project = deps.env.BBDC_PROJECT;
        return { host: await cd.host(), project, slug: deps.env.BBDC_REPO.toLowerCase(), source: 'env' };
      }
      const picked = pickRemote(await gitRepos());
      if (!picked) {
        throw new UsageError(
          'no repository chosen: pass -R PROJECT/slug, set BBDC_PROJECT and BBDC_REPO, or run inside a clone of a Bitbucket repository',
        );
      }
      announce(picked, 'repo');
      const host =
        globals.host || deps.env.BBDC_URL
          ? await cd.host()
          : { source: 'git' as const, ...(await credentialsFor(picked.hostUrl)) };
      return { host, project: picked.project, slug: picked.slug, source: 'git' };
    },
    async resolveHost(url) {
      return { source: 'config', ...(await credentialsFor(url)) };
    },
    async client(host) {
      const resolved = host ?? (await cd.host());
      return cd.clientFor(resolved.url, resolved.credentials);
    },
    async clientFor(url, credentials) {
      transport ??= createTransport();
      return createClient({
        baseUrl: url,
        credentials,
        transport: await transport,
        retry: {
          retries: globals.retryCount,
          backoffMs: globals.retryBackoffMs,
          maxDelayMs: 60_000,
          // Someone at a terminal gets an answer within about a second; scripts keep the full retries.
          ...(deps.stdoutIsTTY &&
            deps.stdinIsTTY() &&
            !globals.retryExplicit && { budgetMs: interactiveRetryBudgetMs }),
        },
        clock: deps.clock,
        logger,
        // Someone watching a terminal is told why nothing happens for a while; scripts read --log-level info.
        ...(deps.stderrIsTTY &&
          (globals.logLevel === 'warn' || globals.logLevel === 'error') && {
            onRetry: (waitMs: number, reason: string) =>
              deps.stderr.write(
                `${logger.scrub(`retrying in ${+(waitMs / 1000).toFixed(1)}s: ${reason}`)}\n`,
              ),
          }),
        onAccepted: (write) => accepted.push(write),
      });
    },
  };

  async function createTransport(): Promise<Transport> {
    let ca: string | undefined;
    if (globals.caFile) {
      try {
        ca = readFileSync(globals.caFile, 'utf8');
      } catch (error) {
        throw new UsageError(
          `--ca-file ${globals.caFile} cannot be read (${(error as NodeJS.ErrnoException).code}); pass a PEM file`,
        );
      }
    }
    if (globals.insecureSkipVerify) {
      deps.stderr.write(
        'warning: --insecure-skip-verify: TLS certificates are not verified; anyone on the network can read your token\n',
      );
    }
    return deps.http({
      ca,
      insecure: globals.insecureSkipVerify,
      timeoutMs: globals.requestTimeoutMs,
      env: deps.env,
    });
  }

  return {
    deps: cd,
    /** The writes the server accepted during this run, in order. */
    accepted,
    async dispose() {
      if (transport) await (await transport.catch(() => undefined))?.close();
    },
  };
}
