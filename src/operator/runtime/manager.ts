// Runs controllers the way controller-runtime's manager does: each controller declares what wakes it (its own
// kind, the children it owns, other kinds mapped to its keys) beside itself, and the manager starts one shared
// watch per watched type, feeds every controller's queue and re-queues resynced kinds every drift interval. The
// watches are also the controllers' read cache: each is registered in `cache` (watch-cache.ts), which answers
// the controllers' gets and lists of watched types and starts the per-namespace Secret watches.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { Timer } from '../../core/clock.ts';
import { controllerLoop, type LoopDeps, type Reconciler } from './controller-loop.ts';
import type { WatchCache } from './watch-cache.ts';
import {
  type KeyMapper,
  ownKey,
  startWatch,
  type WatchDeps,
  type WatchedType,
  type WatchSource,
} from './watch-source.ts';
import type { WorkQueue } from './work-queue.ts';

/** The cached objects of a watched kind, for mapping one object's change to other keys. */
export type CacheReader = { objects(kind: string): readonly KubernetesObject[] };

/** One thing that wakes a controller. */
export type Watch = {
  readonly type: WatchedType;
  /** The key a watched object maps to (default: its own `namespace/name`). */
  readonly map?: KeyMapper;
  /** The controller's keys to wake for a mapped key (default: that key itself). */
  readonly wake?: (key: string, cache: CacheReader) => Iterable<string>;
  /** Whether a change to the object's status alone wakes the controller (default: no). */
  readonly onStatus?: boolean;
};

/** A controller: its kind, its reconcile function, what wakes it, and whether it is resynced periodically. */
export type ControllerDefinition = {
  readonly kind: string;
  readonly reconcile: Reconciler;
  readonly watches: readonly Watch[];
  /** Re-queue every object of `kind` every drift interval. */
  readonly resync?: boolean;
};

/** The running controllers: their queues and watches, ready when every watch has listed once. */
export type Manager = {
  synced(): boolean;
  /** Runs controller `kind` for `key` now (a change found outside the watches). */
  enqueue(kind: string, key: string): void;
  stop(): Promise<void>;
};

type Source = { source: WatchSource; listeners: ((key: string, statusOnly: boolean) => void)[] };

const typeId = (t: WatchedType) => `${t.apiVersion}/${t.kind}?${t.labelSelector ?? ''}`;

/** Starts `controllers`: one queue each, one watch per distinct (type, key mapping). */
export function startManager(
  controllers: readonly ControllerDefinition[],
  deps: { loop: LoopDeps; watch: WatchDeps; driftIntervalMs: number; cache?: WatchCache },
): Manager {
  const sources = new Map<string, Source>();
  const extra: WatchSource[] = [];
  if (deps.cache) {
    deps.cache.startNamespaced = (type) => {
      const source = startWatch(type, ownKey, () => {}, deps.watch);
      extra.push(source);
      return source;
    };
  }
  const byKind = new Map<string, WatchSource>();
  const cache: CacheReader = { objects: (kind) => byKind.get(kind)?.objects() ?? [] };
  const sourceFor = (type: WatchedType, map: KeyMapper): Source => {
    const id = `${typeId(type)}#${map === ownKey ? 'own' : map.name || 'mapped'}`;
    let entry = sources.get(id);
    if (!entry) {
      const listeners: Source['listeners'] = [];
      const source = startWatch(
        type,
        map,
        (key, statusOnly) => {
          for (const l of listeners) l(key, statusOnly);
        },
        deps.watch,
      );
      entry = { source, listeners };
      sources.set(id, entry);
      deps.cache?.register(type, source);
      if (map === ownKey && !type.labelSelector) byKind.set(type.kind, source);
    }
    return entry;
  };
  const queues: WorkQueue[] = [];
  const queueOf = new Map<string, WorkQueue>();
  const timers = new Map<string, Timer>();
  for (const c of controllers) {
    const queue = controllerLoop(c.kind, c.reconcile, deps.loop);
    queues.push(queue);
    queueOf.set(c.kind, queue);
    for (const w of c.watches) {
      sourceFor(w.type, w.map ?? ownKey).listeners.push((key, statusOnly) => {
        if (statusOnly && !w.onStatus) return;
        for (const k of w.wake ? w.wake(key, cache) : [key]) queue.add(k);
      });
    }
    if (c.resync) {
      // Each key at its own random point of the interval: resources created together do not resync together.
      const every = () => {
        for (const o of cache.objects(c.kind)) {
          const key = ownKey(o);
          const random = deps.loop.random;
          if (key) queue.addAfter(key, random ? Math.floor(random() * deps.driftIntervalMs) : 0);
        }
        timers.set(c.kind, deps.loop.clock.setTimer(deps.driftIntervalMs, every));
      };
      timers.set(c.kind, deps.loop.clock.setTimer(deps.driftIntervalMs, every));
    }
  }
  return {
    synced: () => [...sources.values()].every((s) => s.source.synced()),
    enqueue: (kind, key) => queueOf.get(kind)?.add(key),
    async stop() {
      for (const t of timers.values()) t.cancel();
      if (deps.cache) {
        deps.cache.startNamespaced = undefined;
        deps.cache.clear();
      }
      await Promise.all([...sources.values()].map((s) => s.source.stop()));
      await Promise.all(extra.map((s) => s.stop()));
      await Promise.all(queues.map((q) => q.shutdown()));
    },
  };
}
