import { Hono } from 'hono';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { errorHandler, unavailable } from '../errors.ts';
import type { Logger } from '../lib/logger.ts';
import { databaseFault, isDatabaseUnavailable, retryAfterSeconds, type DatabaseFault } from './faults.ts';

// Decision 114: which errors say the database cannot serve now, and how the API answers them.

/** An error as pg builds it from a Postgres ErrorResponse: a DatabaseError whose fields are set after. */
function postgresError(code: string, message: string, severity = 'ERROR'): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  error.severity = severity;
  return error;
}

/** As Node gives them: a system error with its errno code. */
function systemError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code, errno: -1, syscall: 'write' });
}

// The texts Postgres 17 sends for each fault (src/backend: md.c, mcxt.c, postinit.c, utility.c, elog.c).
const faults: [string, unknown, DatabaseFault][] = [
  ['a full disk', postgresError('53100', 'could not extend file "base/16384/16385": No space left on device'), 'disk_full'],
  ['a full disk while writing WAL', postgresError('53100', 'could not write to file "pg_wal/xlogtemp.123": No space left on device'), 'disk_full'],
  ['out of memory', postgresError('53200', 'out of memory'), 'out_of_memory'],
  ['too many clients', postgresError('53300', 'sorry, too many clients already', 'FATAL'), 'too_many_connections'],
  ['a role past its connection limit', postgresError('53300', 'too many connections for role "shop"', 'FATAL'), 'too_many_connections'],
  ['no more processes or files', postgresError('53000', 'could not fork new process for connection: Resource temporarily unavailable'), 'out_of_resources'],
  ['a read-only database', postgresError('25006', 'cannot execute INSERT in a read-only transaction'), 'read_only'],
  // errcode_for_file_access() gives EROFS the SQLSTATE of a missing privilege: the words tell it apart.
  ['a read-only file system', postgresError('42501', 'could not create file "base/16384/16390": Read-only file system'), 'read_only'],
  ['a failing disk', postgresError('58030', 'could not read block 0 in file "base/16384/16385": Input/output error'), 'io_error'],
  ['a statement timeout', postgresError('57014', 'canceling statement due to statement timeout'), 'stalled'],
  ['an administrator shutdown', postgresError('57P01', 'terminating connection due to administrator command', 'FATAL'), 'shutting_down'],
  ['a server starting up', postgresError('57P03', 'the database system is starting up', 'FATAL'), 'shutting_down'],
  ['a connection failure', postgresError('08006', 'connection failure'), 'unreachable'],
  ['a pool that has no connection in time', new Error('timeout exceeded when trying to connect'), 'stalled'],
  ['a query pg gave up on', new Error('Query read timeout'), 'stalled'],
  ['the stall watch', new Error('The database is not answering'), 'stalled'],
  ['a connection that ended', new Error('Connection terminated unexpectedly'), 'unreachable'],
  ['a refused connection', systemError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), 'unreachable'],
  ['a broken pipe', systemError('EPIPE', 'write EPIPE'), 'unreachable'],
  ['a full disk under the data directory', systemError('ENOSPC', 'no space left on device, write'), 'disk_full'],
  ['a data directory mounted read-only', systemError('EROFS', 'read-only file system, open'), 'read_only'],
  ['a failure in a fetch', new TypeError('fetch failed', { cause: systemError('ECONNRESET', 'read ECONNRESET') }), 'unreachable'],
  ['one of several addresses', new AggregateError([new Error('nope'), systemError('ECONNREFUSED', 'connect ECONNREFUSED ::1:5432')]), 'unreachable'],
];

const notFaults: [string, unknown][] = [
  ['a unique violation', postgresError('23505', 'duplicate key value violates unique constraint "users_pkey"')],
  ['a missing privilege', postgresError('42501', 'permission denied for table users')],
  ['a statement past a configured limit', postgresError('53400', 'too many range table entries')],
  ['a syntax error', postgresError('42601', 'syntax error at or near "selec"')],
  ['a programming error', new TypeError("Cannot read properties of undefined (reading 'id')")],
  ['a string', 'disk full'],
  ['nothing', null],
];

describe('databaseFault', () => {
  it.each(faults)('names %s', (_, error, fault) => {
    expect(databaseFault(error)).toBe(fault);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each(notFaults)('leaves %s to the caller', (_, error) => {
    expect(databaseFault(error)).toBeNull();
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('asks for 2 s on a fault that passes and 10 s on one that waits on an operator', () => {
    expect(['unreachable', 'stalled', 'shutting_down', 'too_many_connections'].map((f) => retryAfterSeconds(f as DatabaseFault))).toEqual([2, 2, 2, 2]);
    expect(['disk_full', 'read_only', 'out_of_memory', 'out_of_resources', 'io_error'].map((f) => retryAfterSeconds(f as DatabaseFault))).toEqual([
      10, 10, 10, 10, 10,
    ]);
  });
});

interface Line {
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

/** The API's error handler behind one route that throws `error`, and what it logged. */
async function answerTo(
  error: unknown,
): Promise<{ status: number; retryAfter: string | null; body: { error: { code: string; message: string } }; lines: Line[] }> {
  const lines: Line[] = [];
  const logger: Logger = {
    info: (message, fields) => lines.push({ level: 'info', message, fields }),
    warn: (message, fields) => lines.push({ level: 'warn', message, fields }),
    error: (message, fields) => lines.push({ level: 'error', message, fields }),
  };
  const app = new Hono().onError(errorHandler(logger)).post('/api/orders', () => {
    throw error;
  });
  const response = await app.request('/api/orders', { method: 'POST' });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as never, lines };
}

describe('the API answering a database fault', () => {
  it.each(faults)('answers %s 503 unavailable with Retry-After, logged on one line without a stack', async (_, error, fault) => {
    const answer = await answerTo(error);
    expect(answer).toMatchObject({ status: 503, retryAfter: String(retryAfterSeconds(fault)), body: { error: { code: 'unavailable' } } });
    expect(answer.lines).toHaveLength(1);
    const [line] = answer.lines;
    expect(line).toMatchObject({ level: 'warn', message: 'database unavailable', fields: { fault, method: 'POST', path: '/api/orders' } });
    const logged = JSON.stringify(line);
    expect(logged).not.toMatch(/\\n\s+at /);
    expect(logged).not.toContain('faults.test.ts');
  });

  it('names the SQLSTATE of a Postgres refusal in the line', async () => {
    const { lines } = await answerTo(postgresError('53100', 'could not extend file "base/1/2": No space left on device'));
    expect(lines[0]!.fields).toMatchObject({ fault: 'disk_full', code: '53100', error: 'could not extend file "base/1/2": No space left on device' });
  });

  it('keeps 500 internal, with its stack, for an error that is no fault of the database', async () => {
    const answer = await answerTo(postgresError('23505', 'duplicate key value violates unique constraint "users_pkey"'));
    expect(answer).toMatchObject({ status: 500, retryAfter: null, body: { error: { code: 'internal' } } });
    expect(answer.lines).toMatchObject([{ level: 'error', message: 'unexpected error' }]);
  });

  it('answers an unavailable() of the code 503 with its Retry-After', async () => {
    const answer = await answerTo(unavailable('The sign-in service cannot be reached; try again shortly'));
    expect(answer).toMatchObject({
      status: 503,
      retryAfter: '2',
      body: { error: { code: 'unavailable', message: 'The sign-in service cannot be reached; try again shortly' } },
    });
    expect(unavailable('x', 30).retryAfterSeconds).toBe(30);
  });
});
