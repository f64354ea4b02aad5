// What workerd's nodejs_compat flag (wrangler.toml) gives the Worker's code, as far as it uses it
// (tsconfig.worker.json, decision 244): the rest of Node is not there for the Worker's project, so a new
// use of it fails the typecheck until it is checked against workerd and declared here.

declare module 'node:async_hooks' {
  export class AsyncLocalStorage<T> {
    getStore(): T | undefined;
    run<R>(store: T, callback: () => R): R;
  }
}

declare module 'node:dns' {
  export const promises: {
    lookup(hostname: string, options: { all: true; verbatim?: boolean }): Promise<{ address: string; family: number }[]>;
  };
}

// The HTML timers take an absent id (nothing to clear); @cloudflare/workers-types says `number | null` only.
declare function clearTimeout(timeoutId?: number | null): void;
declare function clearInterval(timeoutId?: number | null): void;
