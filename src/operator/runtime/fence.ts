// The fence on every write the operator sends (Kubernetes and Keycloak): check() before each attempt, retries
// included, and a signal that aborts requests in flight the moment leadership is lost. A deposed leader thus
// stops writing at once instead of finishing its retries (up to a minute with backoffs and timeouts).
import type { Dispatcher } from 'undici';
import { RealmforgeError } from '../../core/errors.ts';

/** Guards writes: check() throws once this replica may no longer write; `signal` aborts when that happens. */
export type Fence = { check(): void; readonly signal: AbortSignal };

/** The error a fenced write throws. */
export const notLeader = (what: string) =>
  new RealmforgeError('conflict', `not the leader any more: this replica does not write ${what}`);

/** A fence that lets every write through (no leader election). */
export const openFence: Fence = { check() {}, signal: new AbortController().signal };

/** A fence that holds while `canWrite()` does and until lost() is called; lost() aborts what is in flight. */
export function leaderFence(canWrite: () => boolean, what = ''): Fence & { lost(): void } {
  const aborter = new AbortController();
  return {
    check() {
      if (aborter.signal.aborted || !canWrite()) throw notLeader(what);
    },
    signal: aborter.signal,
    lost() {
      aborter.abort(notLeader(what));
    },
  };
}

/**
 * `dispatcher`, running `check` again as each request is about to be written to its connection, after whatever it
 * waited for since the caller checked (a connect, a busy pool, credentials): a check that throws aborts it unsent.
 * A replica paused there (SIGSTOP, a stalled VM) wakes deposed, and must not send what it had checked before.
 * Without a check (a read), `dispatcher` itself.
 */
export function checkedAtWrite(dispatcher: Dispatcher, check?: () => void): Dispatcher {
  if (!check) return dispatcher;
  return dispatcher.compose(
    (dispatch) => (options, handler) =>
      dispatch(
        options,
        Object.create(handler, {
          onRequestStart: {
            value(
              this: Dispatcher.DispatchHandler,
              controller: Dispatcher.DispatchController,
              context: unknown,
            ) {
              try {
                check();
              } catch (error) {
                controller.abort(error as Error);
                return;
              }
              return handler.onRequestStart?.call(this, controller, context);
            },
          },
        }),
      ),
  );
}
