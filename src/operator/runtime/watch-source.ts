// Feeds a work queue from the API server, as a client-go informer does: list (paged), then watch from the list's
// resourceVersion with bookmarks, keeping a cache of the objects. A watch the server ends (its timeout) or that
// breaks (a disconnect) resumes from the last resourceVersion seen; 410 Gone (that version was compacted away)
// relists, and the relist wakes every object that changed or vanished meanwhile. A watch that brings neither an
// event nor a bookmark for twice the bookmark interval is dead (a half-open connection after an API server
// restart) and is resumed at once, not after its 5-10 minute timeout. Errors restart after a backoff.
// Cached objects drop metadata.managedFields, which the controllers never read and which is often half an object.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Clock, Timer } from '../../core/clock.ts';
import { finalizer } from '../compile/kube-object.ts';
import { type BackoffOptions, backoffDelay } from './backoff.ts';
import type { KubeResources } from './kube-resources.ts';
import { resourcePath } from './kube-resources.ts';
import { type KubeTransport, kubeError } from './kube-transport.ts';
import type { Logger } from './logger.ts';

/** A watched type (all namespaces, or one): apiVersion/kind and an optional label selector. */
export type WatchedType = {
  readonly apiVersion: string;
  readonly kind: string;
  readonly labelSelector?: string;
  /** Watch one namespace only (Secrets, which the operator is granted per namespace). */
  readonly namespace?: string;
};

/** Maps a watched object to the queue key it should wake (namespace/name of its owning resource), or none. */
export type KeyMapper = (object: KubernetesObject) => string | undefined;

/** The key of a namespaced object itself. */
export const ownKey: KeyMapper = (o) =>
  o.metadata?.name ? `${o.metadata.namespace ?? ''}/${o.metadata.name}` : undefined;

/** The key of the controller owner of kind `kind` (same namespace), for children such as a Deployment. */
export function ownerKey(kind: string): KeyMapper {
  return (o) => {
    const owner = o.metadata?.ownerReferences?.find((r) => r.controller && r.kind === kind);
    return owner ? `${o.metadata?.namespace ?? ''}/${owner.name}` : undefined;
  };
}

/** A started watch: the keys and objects it has cached, whether it has listed once, and stop(). */
export type WatchSource = {
  keys(): string[];
  objects(): readonly KubernetesObject[];
  synced(): boolean;
  stop(): Promise<void>;
};

/** What a watch needs: the API server, time, logs, the restart backoff and the server-side watch timeout. */
export type WatchDeps = {
  transport: KubeTransport;
  resources: KubeResources;
  clock: Clock;
  logger: Logger;
  backoff: BackoffOptions;
  /** Seconds the server keeps one watch open (client-go picks 5 to 10 minutes). */
  timeoutSeconds?: number;
  /** A watch without any event or bookmark for this long is dead (a half-open connection): it is restarted. */
  idleMs?: number;
};

/** The API server's watch cache sends a bookmark about once a minute. */
export const bookmarkIntervalMs = 60_000;
/** A watch silent for twice the bookmark interval is restarted. */
export const watchIdleMs = 2 * bookmarkIntervalMs;

type WatchEvent = { type?: string; object?: KubernetesObject & { code?: number } };

const cacheKey = (o: KubernetesObject) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
const versionOf = (o: KubernetesObject | undefined) => o?.metadata?.resourceVersion;

/**
 * Whether `next` differs from `previous` only in status (and resourceVersion), or by the operator's cleanup
 * finalizer added: same generation, labels, annotations, other finalizers and deletion mark. A controller need not
 * reconcile the status it wrote itself, nor the finalizer it adds at the start of the reconcile that goes on to do
 * the work (a removed finalizer still wakes it).
 */
export function statusOnlyChange(previous: KubernetesObject | undefined, next: KubernetesObject): boolean {
  const a = previous?.metadata;
  const b = next.metadata;
  if (!a || !b || a.generation === undefined || a.generation !== b.generation) return false;
  const same = (x: unknown, y: unknown) => JSON.stringify(x ?? null) === JSON.stringify(y ?? null);
  const added = (b.finalizers ?? []).filter((f) => !(a.finalizers ?? []).includes(f));
  const finalizers =
    same(a.finalizers, b.finalizers) ||
    (added.length === 1 &&
      added[0] === finalizer &&
      same(
        a.finalizers ?? [],
        b.finalizers?.filter((f) => f !== finalizer),
      ));
  return (
    same(a.labels, b.labels) &&
    same(a.annotations, b.annotations) &&
    finalizers &&
    a.deletionTimestamp === b.deletionTimestamp
  );
}

function lean(o: KubernetesObject): KubernetesObject {
  if (o.metadata) delete o.metadata.managedFields;
  return o;
}

/**
 * Starts watching `type`, calling `enqueue` with the mapped key of every added, changed or deleted object, and
 * whether the change was to its status only (see statusOnlyChange).
 */
export function startWatch(
  type: WatchedType,
  map: KeyMapper,
  enqueue: (key: string, statusOnly: boolean) => void,
  deps: WatchDeps,
): WatchSource {
  const { transport, clock, logger } = deps;
  let cache = new Map<string, KubernetesObject>();
  let version: string | undefined;
  let synced = false;
  let stopped = false;
  let failures = 0;
  const abort = new AbortController();
  let sleeping: { timer: Timer; wake: () => void } | undefined;
  const wake = (o: KubernetesObject, statusOnly = false) => {
    const key = map(o);
    if (key) enqueue(key, statusOnly);
  };
  const collection = async () => {
    const resource = await deps.resources.resolve(type);
    if (!resource) throw new Error(`the API server does not serve ${type.kind} (${type.apiVersion})`);
    return resourcePath(type.apiVersion, resource, { namespace: type.namespace });
  };

  async function relist(path: string): Promise<void> {
    const next = new Map<string, KubernetesObject>();
    let token: string | undefined;
    let listVersion: string | undefined;
    do {
      const res = await transport.request('GET', path, {
        query: { labelSelector: type.labelSelector, limit: 500, continue: token },
      });
      if (res.status !== 200) throw kubeError(`listing ${type.kind}`, res.status, res.body);
      const page = res.body as {
        items?: KubernetesObject[];
        metadata?: { continue?: string; resourceVersion?: string };
      };
      for (const o of page.items ?? [])
        next.set(cacheKey(o), lean({ ...o, apiVersion: type.apiVersion, kind: type.kind }));
      token = page.metadata?.continue || undefined;
      listVersion = page.metadata?.resourceVersion;
    } while (token);
    const previous = cache;
    cache = next;
    version = listVersion;
    for (const [key, o] of next) {
      const before = previous.get(key);
      if (versionOf(before) !== versionOf(o)) wake(o, statusOnlyChange(before, o));
    }
    for (const [key, o] of previous) if (!next.has(key)) wake(o);
  }

  /** One watch until it ends: 'resume' from the last version, or 'relist' after 410 Gone. */
  async function watchOnce(path: string): Promise<'resume' | 'relist'> {
    const timeoutSeconds = deps.timeoutSeconds ?? Math.floor(300 + 300 * Math.random());
    const query = {
      watch: 1,
      resourceVersion: version,
      allowWatchBookmarks: true,
      timeoutSeconds,
      labelSelector: type.labelSelector,
    };
    const started = clock.now();
    // A watchdog on the clock: every event or bookmark re-arms it; when it fires, this watch is aborted and resumed.
    const idleMs = deps.idleMs ?? watchIdleMs;
    const own = new AbortController();
    const onStop = () => own.abort();
    abort.signal.addEventListener('abort', onStop, { once: true });
    if (abort.signal.aborted) own.abort(); // stopped before this watch began: an abort event will not come again
    let idle = false;
    let watchdog: Timer | undefined;
    const arm = () => {
      watchdog?.cancel();
      watchdog = clock.setTimer(idleMs, () => {
        idle = true;
        own.abort();
      });
    };
    arm();
    let seen = 0;
    try {
      const res = await transport.watch(path, query, own.signal, (timeoutSeconds + 30) * 1000);
      if (res.status === 410) return 'relist';
      if (res.status !== 200 || !res.events) throw kubeError(`watching ${type.kind}`, res.status, res.body);
      for await (const raw of res.events) {
        arm();
        const event = raw as WatchEvent;
        const o = event.object;
        if (!o) continue;
        seen++;
        failures = 0;
        if (event.type === 'ERROR') {
          if (o.code === 410) return 'relist';
          throw kubeError(`watching ${type.kind}`, o.code ?? 500, o);
        }
        version = versionOf(o) ?? version;
        if (event.type === 'BOOKMARK') continue;
        const previous = cache.get(cacheKey(o));
        if (event.type === 'DELETED') cache.delete(cacheKey(o));
        else cache.set(cacheKey(o), lean({ ...o, apiVersion: type.apiVersion, kind: type.kind }));
        wake(o, event.type === 'MODIFIED' && statusOnlyChange(previous, o));
      }
    } catch (error) {
      if (!idle || stopped) throw error;
    } finally {
      watchdog?.cancel();
      abort.signal.removeEventListener('abort', onStop);
    }
    if (idle) {
      logger.warn('no event or bookmark on the watch; restarting it', { kind: type.kind, idleMs });
      return 'resume';
    }
    // A stream that ends at once and empty is a broken connection, not the server's timeout: back off.
    if (seen === 0 && clock.now() - started < 1000) throw new Error('the watch closed at once');
    failures = 0;
    return 'resume';
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      sleeping = { timer: clock.setTimer(ms, resolve), wake: resolve };
    });
  }

  async function run(): Promise<void> {
    let needList = true;
    while (!stopped) {
      try {
        const path = await collection();
        if (needList) {
          await relist(path);
          needList = false;
          synced = true;
        }
        needList = (await watchOnce(path)) === 'relist';
        if (needList) logger.info('watch expired (410 Gone); relisting', { kind: type.kind });
      } catch (error) {
        if (stopped) break;
        failures++;
        const delay = backoffDelay(failures, deps.backoff);
        const message = String((error as Error | undefined)?.message ?? error);
        logger.warn('watch ended; restarting', { kind: type.kind, error: message, retryInMs: delay });
        await sleep(delay);
        sleeping = undefined;
      }
    }
  }
  const running = run();

  return {
    keys: () => [...cache.values()].map(map).filter((k): k is string => k !== undefined),
    objects: () => [...cache.values()],
    synced: () => synced,
    async stop() {
      stopped = true;
      abort.abort();
      sleeping?.timer.cancel();
      sleeping?.wake();
      await running;
    },
  };
}
