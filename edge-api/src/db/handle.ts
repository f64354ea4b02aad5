import type { Kysely, Transaction } from 'kysely';
import type { Database } from './schema.ts';

/** What a query runs on: the pool, or a transaction a caller holds (one type for every query module). */
export type Db = Kysely<Database> | Transaction<Database>;
