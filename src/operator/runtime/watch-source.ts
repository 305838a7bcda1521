// Feeds a work queue from the API server: an informer lists, then watches from the list's resourceVersion; the
// client relists after 410 Gone. When a watch ends with an error the informer is restarted after a backoff, so a
// disconnect or an expired resourceVersion never silences a controller.
import {
  type KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  makeInformer,
} from '@kubernetes/client-node';
import { type BackoffOptions, backoffDelay } from './backoff.ts';
import type { Clock, Timer } from './clock.ts';
import type { Logger } from './logger.ts';

/** A watched type: its API path (all namespaces), apiVersion/kind for listing, an optional label selector. */
export type WatchedType = {
  readonly path: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly labelSelector?: string;
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

/** Starts watching `type`, calling `enqueue` with the mapped key of every added, changed or deleted object. */
export function startWatch(
  config: KubeConfig,
  type: WatchedType,
  map: KeyMapper,
  enqueue: (key: string) => void,
  deps: { clock: Clock; logger: Logger; backoff: BackoffOptions },
): WatchSource {
  const api = KubernetesObjectApi.makeApiClient(config);
  const list = () =>
    api.list(
      type.apiVersion,
      type.kind,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      type.labelSelector,
    );
  const informer = makeInformer(config, type.path, list, type.labelSelector);
  const wake = (o: KubernetesObject) => {
    const key = map(o);
    if (key) enqueue(key);
  };
  informer.on('add', wake);
  informer.on('update', wake);
  informer.on('delete', wake);
  let failures = 0;
  let stopped = false;
  let synced = false;
  let timer: Timer | undefined;
  informer.on('connect', () => {
    failures = 0;
  });
  // Both an 'error' event and a rejected start() may report one failure: schedule at most one restart.
  const restart = (error: unknown) => {
    if (stopped || timer) return;
    failures++;
    const delay = backoffDelay(failures, deps.backoff);
    const message = String((error as Error | undefined)?.message ?? error);
    deps.logger.warn('watch ended; restarting', { kind: type.kind, error: message, retryInMs: delay });
    timer = deps.clock.setTimer(delay, () => {
      timer = undefined;
      if (!stopped) start();
    });
  };
  informer.on('error', restart);
  // start() resolves once the first list is cached and the watch is open.
  function start() {
    informer.start().then(() => {
      synced = true;
    }, restart);
  }
  start();
  return {
    keys: () =>
      informer
        .list()
        .map(map)
        .filter((k): k is string => k !== undefined),
    objects: () => informer.list(),
    synced: () => synced,
    async stop() {
      stopped = true;
      timer?.cancel();
      await informer.stop();
    },
  };
}
