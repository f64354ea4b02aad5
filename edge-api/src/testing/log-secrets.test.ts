import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkTestLogs } from '../../../scripts/check-test-logs.ts';
import { newApiKey, newWebhookSecret } from '../lib/api-key-secret.ts';
import { generateVapidKeys } from '../push/vapid.ts';
import { demoPassword } from '../seed/demo-passwords.ts';
import { findSecrets } from './log-secrets.ts';
import { testLogger } from './test-logs.ts';

const JWT = 'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwicm9sZSI6ImFkbWluIn0.c2lnbmF0dXJl';

describe('the test logs secret check (decision 238)', () => {
  it('finds every kind of secret the shop has, and says which', async () => {
    const demo = await demoPassword('sb_secret_abc', 'admin@demo.test');
    const apiKey = (await newApiKey()).secret;
    const vapid = await generateVapidKeys();
    const seeded: [string, string][] = [
      [JSON.stringify({ level: 'info', message: 'signed in', token: JWT }), 'JWT'],
      ['GET /api/me authorization: Bearer abcdefghijkl1234', 'Bearer credential'],
      ['Recovery link: http://localhost:8787/auth/v1/verify?token=8f2c1e9a77b0&type=recovery', 'secret in a link'],
      ['magic link http://localhost/#access_token=abcdef123456&type=magiclink', 'secret in a link'],
      [`could not sign in admin@demo.test with ${demo}`, 'demo login password'],
      ['delivered Wise#Nadia2026 to the customer', 'demo stock password'],
      ['revealed Demo#1004', 'demo stock password'],
      [`service key sb_secret_${'a1B2'.repeat(8)}`, 'service-role key'],
      [`partner key ${apiKey}`, 'API key'],
      [`webhook ${newWebhookSecret()}`, 'webhook signing secret'],
      [JSON.stringify({ vapid }), 'private key'],
      ['-----BEGIN PRIVATE KEY-----', 'private key'],
      ['CREDENTIALS_KEY=c2VjcmV0c2VjcmV0c2VjcmV0', 'secret setting'],
      [JSON.stringify({ email: 'a@b.test', password: 'hunter22' }), 'password field'],
    ];
    for (const [line, rule] of seeded) {
      const found = findSecrets(line);
      expect(
        found.map((f) => f.rule),
        line,
      ).toContain(rule);
      // The report does not repeat the secret it found.
      expect(found.map((f) => f.line).join(' ')).not.toContain(line.slice(-12));
    }
  });

  it('lets ordinary log lines through', () => {
    const clean = [
      JSON.stringify({ level: 'info', message: 'request', requestId: 'b7c1a2d4-0000-4000-8000-000000000000', route: '/api/orders', status: 200 }),
      JSON.stringify({ level: 'warn', message: 'refused', code: 'unauthorized' }),
      'Storefront running at http://localhost:40123 (ready in 812 ms)',
      'partner key sk_AbC12345 (the part shown)',
      'Mail for admin@demo.test kept in /tmp/x/mailbox/1700000000000-recovery.eml',
      'This is a demo shop: remove the demo data and accounts with `npm run demo:remove`',
      'GET /api/orders?cursor=2026-11-29T10%3A00%3A00Z&limit=50',
    ];
    for (const line of clean) expect(findSecrets(line), line).toEqual([]);
  });

  it('allows the demo logins only in the one banner line decision 046 prints at their creation', async () => {
    const demo = await demoPassword('sb_secret_abc', 'admin@demo.test');
    expect(findSecrets(`  admin     admin@demo.test / ${demo}`)).toEqual([]);
    expect(findSecrets(JSON.stringify({ message: `admin@demo.test / ${demo}` }))).not.toEqual([]);
    const key = (await newApiKey()).secret;
    expect(findSecrets(`  reseller  reseller@demo.test / ${demo}  API key ${key}`)).toEqual([]);
    expect(findSecrets(`The reseller's key is ${key}`)).not.toEqual([]);
  });

  it('fails a run whose logs hold a seeded secret, naming the file and line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'storefront-log-check-'));
    try {
      await mkdir(join(dir, 'vitest-run'));
      await writeFile(join(dir, 'vitest-run', 'app-1.log'), `${JSON.stringify({ level: 'info', message: 'ok' })}\n`);
      expect(checkTestLogs(dir).findings).toEqual([]);
      const previous = process.env.TEST_LOG_DIR;
      process.env.TEST_LOG_DIR = join(dir, 'vitest-run');
      try {
        // What an app under test would write if a route logged a session: the kit's logger puts it in the run's logs.
        testLogger('seeded').info('session', { access_token: JWT });
      } finally {
        process.env.TEST_LOG_DIR = previous;
      }
      const { files, findings } = checkTestLogs(dir);
      expect(files).toBe(2);
      expect(findings).toHaveLength(1);
      expect(findings[0]).toMatch(/^vitest-run\/seeded-\d+\.log:1: JWT: /);
      expect(findings[0]).not.toContain(JWT);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
