import { describe, expect, it } from 'vitest';
import { parseEnv } from './env.ts';
import { parseWorkerEnv } from './worker-env.ts';

const key = 'A'.repeat(43) + '=';
const worker = (extra: Record<string, unknown> = {}) =>
  parseWorkerEnv({
    HYPERDRIVE: { connectionString: 'postgres://localhost/db' },
    ASSETS: { fetch: async () => new Response() },
    SUPABASE_URL: 'https://abcd.supabase.co',
    SUPABASE_ANON_KEY: 'anon',
    SUPABASE_SERVICE_ROLE_KEY: 'service',
    CREDENTIALS_KEY: key,
    BLIND_INDEX_KEY: key,
    ...extra,
  });

const staffLimits = [
  { name: 'CREDENTIAL_CHECKS_PER_10_MIN', fallback: 120, decision: 'decision 076' },
  { name: 'DELIVERED_LINES_PER_10_MIN', fallback: 1000, decision: 'decision 138' },
  { name: 'STAFF_REVEALS_PER_10_MIN', fallback: 30, decision: 'decision 160' },
] as const;

describe.each(staffLimits)('$name ($decision)', ({ name, fallback }) => {
  it(`is ${fallback} unless set, on Node and on Workers`, () => {
    expect(parseEnv({})[name]).toBe(fallback);
    expect(parseEnv({ [name]: '' })[name]).toBe(fallback);
    const parsed = worker();
    expect(parsed.ok && parsed.env[name]).toBe(fallback);
  });

  it('takes a positive whole number, and names itself when given anything else', () => {
    expect(parseEnv({ [name]: '30' })[name]).toBe(30);
    const parsed = worker({ [name]: '30' });
    expect(parsed.ok && parsed.env[name]).toBe(30);
    for (const bad of ['0', '-5', '2.5', 'many']) {
      expect(() => parseEnv({ [name]: bad })).toThrow(new RegExp(name));
      expect(worker({ [name]: bad })).toMatchObject({ ok: false, problems: [{ path: name }] });
    }
  });
});

describe('scheduled backups (decision 116)', () => {
  it('are off without BACKUP_DIR, daily keeping 7 by default, and refuse intervals and counts that make no sense', () => {
    const defaults = parseEnv({});
    expect(defaults.BACKUP_DIR).toBeUndefined();
    expect(defaults.BACKUP_INTERVAL_HOURS).toBe(24);
    expect(defaults.BACKUP_KEEP).toBe(7);
    const set = parseEnv({ BACKUP_DIR: '/var/backups/storefront', BACKUP_INTERVAL_HOURS: '0.5', BACKUP_KEEP: '30' });
    expect([set.BACKUP_DIR, set.BACKUP_INTERVAL_HOURS, set.BACKUP_KEEP]).toEqual(['/var/backups/storefront', 0.5, 30]);
    expect(() => parseEnv({ BACKUP_INTERVAL_HOURS: '0' })).toThrow(/BACKUP_INTERVAL_HOURS: must be at least/);
    expect(() => parseEnv({ BACKUP_INTERVAL_HOURS: 'daily' })).toThrow(/BACKUP_INTERVAL_HOURS/);
    expect(() => parseEnv({ BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP/);
    expect(() => parseEnv({ BACKUP_KEEP: '2.5' })).toThrow(/BACKUP_KEEP/);
  });
});

// Decision 115: the Node entry's connection limits.
const connectionLimits = [
  { name: 'HTTP_HEADERS_TIMEOUT_MS', fallback: 10_000, bad: ['0', '99', '600001', '1.5', 'soon'] },
  { name: 'HTTP_REQUEST_TIMEOUT_MS', fallback: 120_000, bad: ['0', '99', '3600001', 'later'] },
  { name: 'HTTP_KEEP_ALIVE_TIMEOUT_MS', fallback: 5_000, bad: ['0', '99', '600001', '-1'] },
  { name: 'HTTP_MAX_CONNECTIONS', fallback: 1_000, bad: ['0', '-3', '1000001', '2.5', 'all'] },
] as const;

describe.each(connectionLimits)('$name (decision 115)', ({ name, fallback, bad }) => {
  it(`is ${fallback} unless set`, () => {
    expect(parseEnv({})[name]).toBe(fallback);
    expect(parseEnv({ [name]: '' })[name]).toBe(fallback);
  });

  it('takes a whole number in its range, and names itself when given anything else', () => {
    expect(parseEnv({ [name]: '20000' })[name]).toBe(20_000);
    for (const value of bad) expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(name));
  });
});

it('refuses a headers timeout longer than the request timeout (decision 115)', () => {
  expect(() => parseEnv({ HTTP_HEADERS_TIMEOUT_MS: '30000', HTTP_REQUEST_TIMEOUT_MS: '20000' })).toThrow(
    /HTTP_HEADERS_TIMEOUT_MS: must be at most HTTP_REQUEST_TIMEOUT_MS \(20000\)/,
  );
  expect(parseEnv({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '20000' }).HTTP_HEADERS_TIMEOUT_MS).toBe(20000);
});
