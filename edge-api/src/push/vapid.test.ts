import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '../env.ts';
import { loadOrCreateLocalKeys } from '../local-keys.ts';
import { generateVapidKeys, pushConfigFrom, pushConfigOf } from './vapid.ts';

// VAPID keys (decision 067): made in embedded mode, set by the owner otherwise, checked at start.

describe('VAPID keys', () => {
  it('are made with the other local keys, kept across starts, and added to an older keys.json', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'storefront-vapid-'));
    try {
      const first = await loadOrCreateLocalKeys(dir);
      expect(first.vapid.publicKey).toMatch(/^[\w-]{87}$/);
      expect(first.vapid.privateKey).toMatch(/^[\w-]{43}$/);
      expect((await loadOrCreateLocalKeys(dir)).vapid).toEqual(first.vapid);

      const { vapid: _dropped, ...older } = first;
      await writeFile(join(dir, 'keys.json'), JSON.stringify(older));
      const upgraded = await loadOrCreateLocalKeys(dir);
      expect(upgraded.vapid.publicKey).toMatch(/^[\w-]{87}$/);
      expect(upgraded.credentialsKey).toBe(first.credentialsKey);
      expect(JSON.parse(await readFile(join(dir, 'keys.json'), 'utf8')).vapid).toEqual(upgraded.vapid);
      expect((await stat(join(dir, 'keys.json'))).mode & 0o777).toBe(0o600);
      // The pair works: signing with it is checked when the configuration is made.
      await expect(pushConfigOf({}, upgraded.vapid)).resolves.toMatchObject({ publicKey: upgraded.vapid.publicKey, subject: 'mailto:owner@localhost' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("the owner's keys win over the local ones; a pair that does not belong together, or a bad subject, is refused by name", async () => {
    const [local, owners, other] = await Promise.all([generateVapidKeys(), generateVapidKeys(), generateVapidKeys()]);
    const env = { VAPID_PUBLIC_KEY: owners.publicKey, VAPID_PRIVATE_KEY: owners.privateKey, VAPID_SUBJECT: 'mailto:shop@example.com' };
    expect(await pushConfigOf(env, local)).toMatchObject({ publicKey: owners.publicKey, subject: 'mailto:shop@example.com', allowLocalEndpoints: false });
    expect(await pushConfigOf({ SITE_URL: 'https://shop.example.com' }, local)).toMatchObject({ subject: 'https://shop.example.com' });
    // No keys anywhere (Supabase mode without VAPID_*): push is off.
    expect(await pushConfigOf({})).toBeUndefined();

    await expect(pushConfigFrom({ publicKey: owners.publicKey, privateKey: other.privateKey }, 'mailto:a@b.c')).rejects.toThrow(
      /VAPID_PRIVATE_KEY: does not belong/,
    );
    await expect(pushConfigFrom({ publicKey: 'short', privateKey: owners.privateKey }, 'mailto:a@b.c')).rejects.toThrow(/VAPID_PUBLIC_KEY/);
    await expect(pushConfigFrom({ publicKey: owners.publicKey, privateKey: 'AAAA' }, 'mailto:a@b.c')).rejects.toThrow(/VAPID_PRIVATE_KEY/);
    await expect(pushConfigFrom(owners, 'shop@example.com')).rejects.toThrow(/VAPID_SUBJECT/);
    // The JWK form of the private key is taken too.
    const jwk = JSON.stringify({ kty: 'EC', crv: 'P-256', d: owners.privateKey });
    expect((await pushConfigFrom({ publicKey: owners.publicKey, privateKey: jwk }, 'mailto:a@b.c')).privateKey).toBe(owners.privateKey);
  });

  it('the environment sets both halves or neither', () => {
    expect(() => parseEnv({ VAPID_PUBLIC_KEY: 'x' })).toThrow(/VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together/);
    expect(parseEnv({}).PUSH_ALLOW_LOCAL_ENDPOINTS).toBe('0');
  });
});
