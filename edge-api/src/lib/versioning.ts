import { conflict } from '../errors.ts';

/** Optimistic concurrency: a client that sends the version it last saw may only change that version. */
export function assertVersion(current: number | string, expected: number | undefined, what: string) {
  if (expected !== undefined && Number(current) !== expected) {
    throw conflict(`This ${what} was changed by someone else; reload and try again`, { currentVersion: Number(current) });
  }
}
