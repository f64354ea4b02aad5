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

describe('CREDENTIAL_CHECKS_PER_10_MIN (decision 076)', () => {
  it('is 120 unless set, on Node and on Workers', () => {
    expect(parseEnv({}).CREDENTIAL_CHECKS_PER_10_MIN).toBe(120);
    expect(parseEnv({ CREDENTIAL_CHECKS_PER_10_MIN: '' }).CREDENTIAL_CHECKS_PER_10_MIN).toBe(120);
    const parsed = worker();
    expect(parsed.ok && parsed.env.CREDENTIAL_CHECKS_PER_10_MIN).toBe(120);
  });

  it('takes a positive whole number, and names itself when given anything else', () => {
    expect(parseEnv({ CREDENTIAL_CHECKS_PER_10_MIN: '30' }).CREDENTIAL_CHECKS_PER_10_MIN).toBe(30);
    const parsed = worker({ CREDENTIAL_CHECKS_PER_10_MIN: '30' });
    expect(parsed.ok && parsed.env.CREDENTIAL_CHECKS_PER_10_MIN).toBe(30);
    for (const bad of ['0', '-5', '2.5', 'many']) {
      expect(() => parseEnv({ CREDENTIAL_CHECKS_PER_10_MIN: bad })).toThrow(/CREDENTIAL_CHECKS_PER_10_MIN/);
      expect(worker({ CREDENTIAL_CHECKS_PER_10_MIN: bad })).toMatchObject({ ok: false, problems: [{ path: 'CREDENTIAL_CHECKS_PER_10_MIN' }] });
    }
  });
});
