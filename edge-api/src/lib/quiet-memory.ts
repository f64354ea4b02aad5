import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * The Node entry gives memory back once it is quiet (decision 073). Under load V8 grows its young
 * generation (up to 128 MB on Node 24) and dead objects hold buffers; an idle process allocates nothing,
 * so no collection comes to return any of it, and a shop's server keeps the peak of its last burst for
 * hours. After requests (or the start), once no request has arrived for `quietMs`, one full collection
 * that shrinks the heap runs (about 60 ms, on a process with nothing else to do); none runs again until
 * requests have come and gone.
 */
export function returnMemoryWhenQuiet({ quietMs, collect = fullCollection() }: { quietMs: number; collect?: (() => void) | undefined }) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const quiet = () => {
    timer = undefined;
    collect?.();
  };
  const touch = () => {
    if (timer) timer.refresh();
    else timer = setTimeout(quiet, quietMs).unref();
  };
  // What the start left behind (migrations, the demo data, the page renderer) goes too.
  touch();
  return {
    /** A request arrived: the quiet starts again from now. */
    touch,
    stop: () => clearTimeout(timer),
  };
}

/**
 * V8's memory-reducing full collection (what it runs itself under memory pressure), or undefined where
 * it cannot be reached. Node exposes it only as the `gc` of `--expose-gc`: the flag is set for the one
 * context made here to pick it up, then unset.
 */
export function fullCollection(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as ((options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void) | undefined;
    setFlagsFromString('--no-expose-gc');
    return typeof gc === 'function' ? () => gc({ type: 'major', execution: 'sync', flavor: 'last-resort' }) : undefined;
  } catch {
    return undefined;
  }
}
