import type { ColumnType } from 'kysely';

/** Column types the schema files share: how a column reads, what an insert takes, what an update takes. */

/** A timestamp with a database default: read as a Date, optional on insert. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** A timestamp that may be empty, and is empty unless set. */
export type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** A JSON column, written as its JSON text. */
export type Json<T> = ColumnType<T, string, string>;
/** A JSON column with a database default: optional on insert. */
export type JsonWithDefault<T> = ColumnType<T, string | undefined, string>;
