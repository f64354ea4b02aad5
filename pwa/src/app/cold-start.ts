// A cold start on the app shell (a dashboard screen, My Orders, offline): the user's database is opened
// by main.tsx at once, beside the app's code (issue 33 item 6). Without this it was opened only once the
// first screen had rendered, after all of the app's code had loaded and run: one wait after the other
// between the shell and the first row. No import here: this module stays a few hundred bytes.

/** The id of the user whose session (or ended session, decision 040) this device keeps; read without the auth client. */
function storedUserId(): string | null {
  try {
    for (const [key, pick] of [
      ['storefront:auth', (value: unknown) => (value as { user?: { id?: unknown } } | null)?.user?.id],
      ['storefront:last-user', (value: unknown) => (value as { id?: unknown } | null)?.id],
    ] as const) {
      const raw = localStorage.getItem(key);
      const id = raw ? pick(JSON.parse(raw)) : undefined;
      if (typeof id === 'string') return id;
    }
  } catch {
    // storage not readable: the app finds out as it always did
  }
  return null;
}

/** How long the early connection stays open: the app's own has opened by then. */
const HOLD_MS = 10_000;

/**
 * Opens the user's database (at whatever version it is, never upgrading it) so that the browser has it
 * open and read from disk when Dexie asks for it after the app's code has run. The connection closes
 * itself after a while, and at once when Dexie upgrades the database. Nothing waits on it.
 */
export function warmColdStart(): void {
  const userId = storedUserId();
  if (!userId || typeof indexedDB === 'undefined') return;
  try {
    const request = indexedDB.open(`storefront-user-${userId}`);
    request.onsuccess = () => {
      const db = request.result;
      db.onversionchange = () => db.close();
      setTimeout(() => db.close(), HOLD_MS);
    };
  } catch {
    // IndexedDB refused (private mode): the app meets it as it always did
  }
}
