/**
 * Database faults: errors that say the database cannot be reached or did not answer in time, as opposed to
 * a query it refused. The API answers those 503 with Retry-After (errors.ts) and the process stays up.
 */

/** Seconds a client is asked to wait before trying again while the database is unavailable. */
export const RETRY_AFTER_SECONDS = 2;

const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOENT']);

/**
 * Postgres SQLSTATEs of a server that is going away or cannot serve: class 08 (connection exception),
 * 57P01-57P03 (admin or crash shutdown, cannot connect now), 53300 (too many connections), 57014 (a
 * statement cancelled by statement_timeout).
 */
const serverStates = (state: string) => state.startsWith('08') || ['57P01', '57P02', '57P03', '53300', '57014'].includes(state);

/** pg's own messages for a connection that ended or a wait that timed out (they carry no code). */
const clientMessages = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Connection ended unexpectedly',
  'connect ECONNREFUSED',
  // connect.ts's stall watch: the database did not answer its probe.
  'The database is not answering',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; current = (current as { cause?: unknown }).cause, depth++) {
    if (typeof current !== 'object') return false;
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (networkCodes.has(code) || (/^[0-9A-Z]{5}$/.test(code) && serverStates(code)))) return true;
    if (typeof message === 'string' && clientMessages.some((text) => message.includes(text))) return true;
    if (current instanceof AggregateError && current.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
  }
  return false;
}
