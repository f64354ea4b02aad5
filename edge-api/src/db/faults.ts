/**
 * Database faults: errors that say the database cannot serve now (it cannot be reached, does not answer in
 * time, or lacks a resource: disk, memory, connections, a writable file system), as opposed to a query it
 * refused. The API answers those 503 `unavailable` with Retry-After and one log line naming the fault
 * (errors.ts, decision 114); the process stays up.
 */

/** What a connection to a server this app did not start fails with (decision 194): nothing is served from it. */
export const NOT_OUR_SERVER = 'The database server answering is not the one this app started';

/** Seconds a client is asked to wait before trying again while the database is unreachable or stalls. */
export const RETRY_AFTER_SECONDS = 2;

/** Seconds to wait on a fault that lasts until someone acts (a full disk, a read-only file system). */
export const RETRY_AFTER_RESOURCE_SECONDS = 10;

export type DatabaseFault =
  /** No connection: refused, reset, ended, a host that does not resolve. */
  | 'unreachable'
  /** A connection or a statement that got no answer in time (pool wait, statement timeout, stall watch). */
  | 'stalled'
  /** The server is shutting down, crashed, or is starting up (57P01-57P03). */
  | 'shutting_down'
  | 'too_many_connections'
  | 'disk_full'
  | 'out_of_memory'
  /** Out of another resource: file descriptors, processes (53000). */
  | 'out_of_resources'
  /** A read-only database or transaction (25006), or a file system mounted read-only (EROFS). */
  | 'read_only'
  /** The disk fails to read or write (58030). */
  | 'io_error';

/** Those that pass by themselves in seconds; the others wait on an operator (more space, a remount, memory). */
const passing = new Set<DatabaseFault>(['unreachable', 'stalled', 'shutting_down', 'too_many_connections']);

/** How long a client should wait before trying again after `fault`. */
export const retryAfterSeconds = (fault: DatabaseFault): number => (passing.has(fault) ? RETRY_AFTER_SECONDS : RETRY_AFTER_RESOURCE_SECONDS);

/** Node's error codes: of the socket to Postgres, and of the data directory's files (images, mailbox). */
const nodeCodes = new Map<string, DatabaseFault>(
  Object.entries({
    ECONNREFUSED: 'unreachable',
    ECONNRESET: 'unreachable',
    EPIPE: 'unreachable',
    ENOTFOUND: 'unreachable',
    EHOSTUNREACH: 'unreachable',
    ENETUNREACH: 'unreachable',
    EAI_AGAIN: 'unreachable',
    // A unix socket that is not there (yet).
    ENOENT: 'unreachable',
    ETIMEDOUT: 'stalled',
    ENOSPC: 'disk_full',
    EDQUOT: 'disk_full',
    EROFS: 'read_only',
    EIO: 'io_error',
    ENOMEM: 'out_of_memory',
    EMFILE: 'out_of_resources',
    ENFILE: 'out_of_resources',
  } satisfies Record<string, DatabaseFault>),
);

/**
 * Postgres SQLSTATEs of a server that cannot serve. 53400 (configuration_limit_exceeded) is left out: it
 * says a statement asked too much of a setting, which waiting does not change.
 */
const sqlStates = new Map<string, DatabaseFault>(
  Object.entries({
    '57P01': 'shutting_down',
    '57P02': 'shutting_down',
    '57P03': 'shutting_down',
    // statement_timeout (or a cancel): the statement waited on a lock or a stalled disk too long.
    '57014': 'stalled',
    '53000': 'out_of_resources',
    '53100': 'disk_full',
    '53200': 'out_of_memory',
    '53300': 'too_many_connections',
    '25006': 'read_only',
    '58030': 'io_error',
  } satisfies Record<string, DatabaseFault>),
);

const stateFault = (state: string): DatabaseFault | undefined => (state.startsWith('08') ? 'unreachable' : sqlStates.get(state));

/**
 * Words of a message that name the fault whatever the code: pg's own messages (they carry no code), and the
 * operating system's text Postgres puts in a file error (an EROFS gets 42501, "insufficient privilege").
 */
const messages: [string, DatabaseFault][] = [
  ['Connection terminated', 'unreachable'],
  ['Client has encountered a connection error and is not queryable', 'unreachable'],
  ['Client was closed and is not queryable', 'unreachable'],
  ['Connection ended unexpectedly', 'unreachable'],
  ['connect ECONNREFUSED', 'unreachable'],
  ['timeout exceeded when trying to connect', 'stalled'],
  ['Query read timeout', 'stalled'],
  // connect.ts's stall watch: the database did not answer its probe.
  ['The database is not answering', 'stalled'],
  [NOT_OUR_SERVER, 'unreachable'],
  ['Read-only file system', 'read_only'],
  ['No space left on device', 'disk_full'],
  ['Disk quota exceeded', 'disk_full'],
];

/** Which fault `error` (or its cause, or one of an AggregateError's errors) is; null for any other error. */
export function databaseFault(error: unknown): DatabaseFault | null {
  for (let current = error, depth = 0; current && depth < 4; current = (current as { cause?: unknown }).cause, depth++) {
    if (typeof current !== 'object') return null;
    const { code, message } = current as { code?: unknown; message?: unknown };
    // Node's codes first: EPIPE and EROFS have the shape of a SQLSTATE too.
    const byCode = typeof code !== 'string' ? undefined : (nodeCodes.get(code) ?? (/^[0-9A-Z]{5}$/.test(code) ? stateFault(code) : undefined));
    if (byCode) return byCode;
    const byMessage = typeof message === 'string' ? messages.find(([text]) => message.includes(text)) : undefined;
    if (byMessage) return byMessage[1];
    if (current instanceof AggregateError) {
      const inner = current.errors.map(databaseFault).find((fault) => fault !== null);
      if (inner) return inner;
    }
  }
  return null;
}

export const isDatabaseUnavailable = (error: unknown): boolean => databaseFault(error) !== null;
