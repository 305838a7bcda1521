// Wraps the KubeClient the controllers use: every request is counted by verb (realmforge_kube_requests_total, the
// figure the benchmark and the steady-state test read), and every write is refused unless `canWrite()` holds, so a
// replica that has lost the leader lease stops writing at once, even in the middle of a reconcile.
import { RealmforgeError } from '../../core/errors.ts';
import type { KubeClient } from './kube-client.ts';

/** A KubeClient that counts requests and refuses writes when `canWrite()` is false. */
export function guardedKube(
  kube: KubeClient,
  options: { count(verb: string): void; canWrite(): boolean },
): KubeClient {
  const write = () => {
    if (!options.canWrite()) {
      throw new RealmforgeError('conflict', 'not the leader any more: this replica does not write');
    }
  };
  return {
    get(ref) {
      options.count('get');
      return kube.get(ref);
    },
    list(type, namespace, selector) {
      options.count('list');
      return kube.list(type, namespace, selector);
    },
    apply(object) {
      write();
      options.count('apply');
      return kube.apply(object);
    },
    applyStatus(ref, status) {
      write();
      options.count('apply-status');
      return kube.applyStatus(ref, status);
    },
    delete(ref) {
      write();
      options.count('delete');
      return kube.delete(ref);
    },
    async event(about, event) {
      if (!options.canWrite()) return;
      options.count('event');
      return kube.event(about, event);
    },
  };
}
