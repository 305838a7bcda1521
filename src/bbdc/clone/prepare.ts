import { existsSync, readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { RealmforgeError } from '../../core/errors.ts';
import { authorization } from '../api/client.ts';
import { statusOf } from '../api/errors.ts';
import { type RestRepository, repoName, repoPath } from '../api/repositories.ts';
import { repoFromArg } from '../cli/repo-arg.ts';
import type { CommandDeps, RepoContext } from '../command.ts';
import { type CloneStep, type CloneUrls, cloneSteps, cloneUrls, type TransportChoice } from './transports.ts';

/** What `bbdc repo clone` was asked: the repository, an optional directory, a forced transport, git's own flags. */
export type CloneOptions = {
  repo: string;
  directory?: string;
  transport: TransportChoice;
  gitArgs: string[];
};

/** Everything a clone needs, resolved from the arguments, the disk and the REST API, before git runs. */
export type ClonePlan = {
  repo: RepoContext;
  name: string;
  directory: string;
  urls: CloneUrls;
  steps: CloneStep[];
  /** The fork origin's clone URLs, when the repository is a fork. */
  upstream?: CloneUrls;
  transport: TransportChoice;
  canPrompt: boolean;
  /** Reasons the clone cannot start, as errors of the kind the command exits with. */
  problems: RealmforgeError[];
};

/** A reason the destination cannot take a clone (a file, or a directory that is not empty), else undefined. */
export function destinationProblem(directory: string): string | undefined {
  if (!existsSync(directory)) return undefined;
  if (!statSync(directory).isDirectory()) return `${directory} exists and is not a directory`;
  if (readdirSync(directory).length) return `${directory} already exists and is not an empty directory`;
  return undefined;
}

/** The checks that need no server: git on PATH and a free destination, as errors; empty when both hold. */
export async function localProblems(directory: string, deps: CommandDeps): Promise<RealmforgeError[]> {
  const problems: RealmforgeError[] = [];
  const version = await deps.git(['--version'], deps.cwd, { env: deps.env });
  if (version.code === 127) {
    problems.push(
      new RealmforgeError(
        'not_found',
        'git was not found on PATH; install Git (https://git-scm.com/downloads) and run the command again',
      ),
    );
  }
  const taken = destinationProblem(directory);
  if (taken) {
    problems.push(
      new RealmforgeError(
        'conflict',
        `${taken}; name another directory: bbdc repo clone <repository> <directory>`,
      ),
    );
  }
  return problems;
}

async function readRepository(repo: RepoContext, deps: CommandDeps): Promise<RestRepository> {
  const client = await deps.client(repo.host);
  try {
    return await client.get<RestRepository>(repoPath(repo.project, repo.slug));
  } catch (error) {
    if (statusOf(error) !== 404) throw error;
    throw new RealmforgeError(
      'not_found',
      `repository ${repoName(repo.project, repo.slug)} was not found on ${repo.host.url}, or you may not read it; check the name with \`bbdc repo list --project ${repo.project}\``,
      { cause: error },
    );
  }
}

/** Resolves a clone: local checks first (run stops at them before any request), then the repository and its links. */
export async function prepareClone(
  o: CloneOptions,
  deps: CommandDeps,
  stopEarly: boolean,
): Promise<ClonePlan> {
  const repo = await repoFromArg(o.repo, deps);
  const directory = resolve(deps.cwd, o.directory ?? repo.slug);
  const problems = await localProblems(directory, deps);
  if (stopEarly && problems.length) throw problems[0];
  const rest = await readRepository(repo, deps);
  const name = repoName(rest.project.key, rest.slug);
  const urls = cloneUrls(rest, repo.host.url);
  const canPrompt = deps.stdinIsTTY();
  const { steps, unusable } = cloneSteps({
    urls,
    transport: o.transport,
    hasToken: authorization(repo.host.credentials) !== undefined,
    canPrompt,
  });
  if (unusable) problems.push(new RealmforgeError('usage', `cannot clone ${name} over ssh: ${unusable}`));
  const upstream = rest.origin && cloneUrls(rest.origin, repo.host.url);
  return {
    repo,
    name,
    directory,
    urls,
    steps,
    ...(upstream && { upstream }),
    transport: o.transport,
    canPrompt,
    problems,
  };
}
