import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request a piece of work runs for, carried through every await (AsyncLocalStorage: Node, and
 * workerd with nodejs_compat), so each log line of a request names its id without passing it around.
 */
const context = new AsyncLocalStorage<{ requestId: string }>();

export function runForRequest<T>(requestId: string, work: () => T): T {
  return context.run({ requestId }, work);
}

/** The id of the request under way, if any. */
export function currentRequestId(): string | undefined {
  return context.getStore()?.requestId;
}
