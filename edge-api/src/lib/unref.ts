/**
 * Lets Node exit while this timer is pending: Node's timers are objects with `unref`. The same code runs on
 * workerd (tsconfig.worker.json, decision 244), whose timers are numbers and keep nothing alive.
 */
export function unref<T>(timer: T): T {
  const handle: unknown = timer;
  if (typeof handle === 'object' && handle !== null && 'unref' in handle && typeof handle.unref === 'function') handle.unref();
  return timer;
}
