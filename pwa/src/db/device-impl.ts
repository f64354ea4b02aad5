// What the storefront's first paint does without: Dexie, the sync engine and the outbox. Loaded after
// the first paint through device.ts (decision 052); screens of the dashboard import these directly.
export { liveQuery } from 'dexie';
export { getPublicDb, getUserDb, userDbName } from './local-db.ts';
export { dismissFailed, retryFailed } from './mutations.ts';
export { getSyncEngine, startSync, wipeUserData } from './sync-engine.ts';
