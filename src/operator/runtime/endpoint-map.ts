// Running the operator outside a cluster: maps in-cluster Service addresses (`<svc>.<ns>.svc:<port>`) to local
// URLs. The map comes from REALMFORGE_ENDPOINT_MAP: a path to a JSON file (re-read when it changes) or inline JSON.
// The file is an object `{ "endpoints": { "<host>:<port>": "http://127.0.0.1:<port>" } }`; the test
// environment's process kubelet writes it.
import { readFileSync, statSync } from 'node:fs';
import { ValidationError } from '../../core/errors.ts';

/** Rewrites in-cluster URLs to the addresses that reach the same service from this process. */
export type EndpointMap = {
  /** The local URL for `url` (path and query kept), or `url` unchanged when no entry matches its host and port. */
  resolve(url: string): string;
};

/** The environment variable that names the map (a file path or inline JSON). */
export const endpointMapVariable = 'REALMFORGE_ENDPOINT_MAP';

type Entries = Record<string, string>;

/** Parses and checks a map document; throws a ValidationError naming the bad entry. */
export function parseEndpointMap(text: string, source: string): Entries {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new ValidationError(`${source}: the endpoint map is not JSON: ${(e as Error).message}`);
  }
  const endpoints = (doc as { endpoints?: unknown } | null)?.endpoints;
  if (typeof endpoints !== 'object' || endpoints === null || Array.isArray(endpoints)) {
    throw new ValidationError(
      `${source}: the endpoint map needs an "endpoints" object of "<host>:<port>": "<url>"`,
    );
  }
  const entries: Entries = {};
  for (const [key, value] of Object.entries(endpoints)) {
    if (!/^[a-z0-9.-]+:\d+$/.test(key))
      throw new ValidationError(`${source}: endpoints key "${key}" is not <host>:<port>`);
    if (typeof value !== 'string' || !/^https?:\/\/[^/]+\/?$/.test(value)) {
      throw new ValidationError(`${source}: endpoints["${key}"] must be a URL such as http://127.0.0.1:8080`);
    }
    entries[key.toLowerCase()] = value.replace(/\/$/, '');
  }
  return entries;
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

function rewrite(entries: Entries, url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  const key = `${u.hostname.toLowerCase()}:${u.port || defaultPort(u.protocol)}`;
  const target = entries[key] ?? entries[key.replace(/\.cluster\.local:/, ':')];
  if (!target) return url;
  return `${target}${u.pathname}${u.search}${u.hash}`;
}

/**
 * The endpoint map named by `spec` (REALMFORGE_ENDPOINT_MAP's value): undefined or empty means none (URLs pass
 * through); text starting with `{` is inline JSON; anything else is a file, re-read whenever its mtime changes.
 */
export function loadEndpointMap(spec: string | undefined): EndpointMap {
  if (!spec?.trim()) return { resolve: (url) => url };
  if (spec.trim().startsWith('{')) {
    const entries = parseEndpointMap(spec, endpointMapVariable);
    return { resolve: (url) => rewrite(entries, url) };
  }
  let entries: Entries = {};
  let seen = -1;
  return {
    resolve(url) {
      let mtime: number;
      try {
        mtime = statSync(spec).mtimeMs;
      } catch {
        entries = {};
        seen = -1;
        return url;
      }
      if (mtime !== seen) {
        entries = parseEndpointMap(readFileSync(spec, 'utf8'), spec);
        seen = mtime;
      }
      return rewrite(entries, url);
    },
  };
}
