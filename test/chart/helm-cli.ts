// Runs the pinned helm binary (scripts/testenv/helm.ts builds it once into the cache) against the charts.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { helmBinary } from '../../scripts/testenv/helm.ts';
import { cacheDir } from '../../scripts/testenv/paths.ts';

export const repo = join(import.meta.dirname, '..', '..');
export const operatorChart = join(repo, 'chart', 'realmforge-operator');
export const clientChart = join(repo, 'chart', 'realmforge-client');

export type HelmResult = { code: number; stdout: string; stderr: string };

let bin: Promise<string> | undefined;

/** Runs helm with args; never throws on a non-zero exit, so tests can assert failures and messages. */
export async function helm(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<HelmResult> {
  bin ??= helmBinary();
  const r = spawnSync(await bin, args, {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, HELM_CACHE_HOME: join(cacheDir(), 'helm-home'), ...env },
  });
  return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/** `helm template` of a chart; throws with helm's message when rendering fails. */
export async function template(chart: string, args: readonly string[] = []): Promise<string> {
  const r = await helm(['template', 'demo', chart, '--namespace', 'realmforge-system', ...args]);
  if (r.code !== 0) throw new Error(`helm template ${chart} failed:\n${r.stderr}`);
  return r.stdout;
}

/** A Kubernetes object as parsed from YAML. */
export type Obj = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [k: string]: any;
};

/** Parses a multi-document YAML stream, skipping empty documents. */
export function parseObjects(text: string): Obj[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as Obj | null)
    .filter((o): o is Obj => o !== null);
}

/** Reads and parses a YAML file of the repository. */
export function readObjects(path: string): Obj[] {
  return parseObjects(readFileSync(join(repo, path), 'utf8'));
}

/** The object of a kind and name, or an error naming what was there. */
export function find(objects: Obj[], kind: string, name: string): Obj {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o)
    throw new Error(`no ${kind} ${name} in ${objects.map((x) => `${x.kind}/${x.metadata.name}`).join(', ')}`);
  return o;
}
