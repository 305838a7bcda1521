// Which controller's reconcile a piece of work runs for, carried through its awaits (AsyncLocalStorage), so that a
// Keycloak call can be counted by the kind of resource that made it without threading the kind through every
// function between the reconciler and the admin client.
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string>();

/** Runs `work` as part of a reconcile of `kind`. */
export const inReconcileOf = <T>(kind: string, work: () => T): T => scope.run(kind, work);

/** The kind whose reconcile is running here; 'none' outside any reconcile. */
export const reconcileKind = (): string => scope.getStore() ?? 'none';
