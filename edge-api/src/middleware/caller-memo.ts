import type { UserRow } from '../db/schema.ts';
import { localWriteCount } from '../db/versions.ts';

/**
 * How long a caller's user record (role, deletion) read from the database is used for that caller's
 * next requests (decision 071). A write in this process (any transaction taking a version, any write
 * request of the API) forgets every record at once; this bounds how long another process's change
 * (a second server, `npm run admin`) takes to reach this one. Decision 045 lets a signed-out session
 * through for 5 s; a request that passed its role check runs on for as long as its queries take.
 */
export const CALLER_MEMO_MS = 1_000;
const MAX_CALLERS = 1_000;

interface Remembered {
  user: UserRow;
  /** localWriteCount() when the read began: a write since then, finished or not, makes it unusable. */
  writes: number;
  until: number;
}

/** The user records of recent callers, per app. A missing record (no user row yet, or deleted) is never remembered. */
export function callerMemo(clock: () => number = () => Date.now()) {
  const remembered = new Map<string, Remembered>();
  return {
    async read(userId: string, load: () => Promise<UserRow | undefined>): Promise<UserRow | undefined> {
      const known = remembered.get(userId);
      if (known && known.writes === localWriteCount() && clock() < known.until) return known.user;
      const writes = localWriteCount();
      const until = clock() + CALLER_MEMO_MS;
      const user = await load();
      if (!user) {
        remembered.delete(userId);
        return undefined;
      }
      if (remembered.size >= MAX_CALLERS) remembered.clear();
      remembered.set(userId, { user, writes, until });
      return user;
    },
  };
}
