import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type SiteSettings } from '../contract/settings.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';

let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;
let customer: TestUser;

type ErrorBody = { error: { code: string; message: string; details?: { path: string; message: string }[] } };

const shopSettings: SiteSettings = {
  brandName: 'Rahim Digital',
  contactChatUrl: 'https://wa.me/8801700000000',
  providerChatUrl: 'tg://resolve?domain=rahim_sales',
  telegramBotUrl: 'https://t.me/rahim_proxy_bot',
  salesHandle: '@rahim_sales',
  supportEmail: 'help@rahim.example',
  supportPhone: '+880 1700-000000',
  address: 'Road 5, Dhanmondi, Dhaka',
  socialLinks: {
    facebook: 'https://facebook.com/rahim',
    twitter: '',
    instagram: '',
    linkedin: '',
    telegram: 'https://t.me/rahim',
    whatsapp: 'https://wa.me/8801700000000',
  },
  wallets: [
    { name: 'bKash', number: '01700000000' },
    { name: 'Nagad', number: '01800000000' },
  ],
};

const settingsRow = () => api.db.selectFrom('settings').selectAll().where('id', '=', 'site').executeTakeFirst();

beforeAll(async () => {
  api = await createApiHarness();
  [admin, moderator, customer] = await Promise.all([api.createUser('admin'), api.createUser('moderator'), api.createUser('user')]);
});
afterAll(() => api.close());

describe('site settings', () => {
  it('answers the demo defaults to anyone while nothing is saved', async () => {
    // Nothing saved: a shared database (a running entry's) may hold another test's settings.
    await api.db.deleteFrom('settings').where('id', '=', 'site').execute();
    const read = await api.call<SiteSettings>('GET', '/api/settings');
    expect(read.status).toBe(200);
    expect(read.body).toEqual(defaultSettings);
    expect(read.body.brandName).toBe('Digital Services Hub');
  });

  it('accepts its own defaults as valid settings', async () => {
    const saved = await api.call<SiteSettings>('PUT', '/api/settings', { user: admin, json: defaultSettings });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual(defaultSettings);
  });

  it('lets only admins change them: 401 anonymous, 403 customers and moderators, nothing saved', async () => {
    const before = await settingsRow();
    expect((await api.call('PUT', '/api/settings', { json: shopSettings })).status).toBe(401);
    expect((await api.call('PUT', '/api/settings', { user: customer, json: shopSettings })).status).toBe(403);
    expect((await api.call('PUT', '/api/settings', { user: moderator, json: shopSettings })).status).toBe(403);
    expect(await settingsRow()).toEqual(before);
  });

  it('saves an admin change, bumps the version, audits it, and every caller then reads it', async () => {
    const before = await settingsRow();
    const saved = await api.call<SiteSettings>('PUT', '/api/settings', { user: admin, json: { ...shopSettings, brandName: '  Rahim Digital  ' } });
    expect(saved.status).toBe(200);
    // A form that sends no low-stock threshold, payment instructions or guest checkout keeps the ones stored (none here).
    expect(saved.body).toEqual({ ...shopSettings, lowStockThreshold: 0, paymentInstructions: [], guestCheckout: false, displayCurrencies: [] });
    for (const user of [undefined, customer, moderator]) {
      const read = await api.call<SiteSettings>('GET', '/api/settings', { user });
      expect(read.body).toEqual({ ...shopSettings, lowStockThreshold: 0, paymentInstructions: [], guestCheckout: false, displayCurrencies: [] });
    }
    const after = await settingsRow();
    expect(Number(after!.version)).toBeGreaterThan(Number(before?.version ?? 0));
    const audit = await api.db.selectFrom('audit_log').selectAll().where('entity', '=', 'settings').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    expect(audit.actor_id).toBe(admin.id);
    expect(audit.details).toMatchObject({ changed: expect.arrayContaining(['brandName', 'wallets', 'contactChatUrl']) });
  });

  it('keeps the display currencies an admin enables, with their rates (decision 233)', async () => {
    const json = {
      ...shopSettings,
      displayCurrencies: [
        { code: 'eur', rate: 0.92 },
        { code: 'BDT', rate: 119.5 },
      ],
    };
    const saved = await api.call<SiteSettings>('PUT', '/api/settings', { user: admin, json });
    expect(saved.status).toBe(200);
    const read = await api.call<SiteSettings>('GET', '/api/settings', { user: customer });
    expect(read.body.displayCurrencies).toEqual([
      { code: 'EUR', rate: 0.92 },
      { code: 'BDT', rate: 119.5 },
    ]);
    await api.call('PUT', '/api/settings', { user: admin, json: { ...shopSettings, displayCurrencies: [] } });
  });

  it('rejects bad settings with 400 naming the field at fault, and keeps the saved ones', async () => {
    const before = await settingsRow();
    const cases: [string, SiteSettings | Record<string, unknown>][] = [
      ['contactChatUrl', { ...shopSettings, contactChatUrl: 'javascript:alert(1)' }],
      ['telegramBotUrl', { ...shopSettings, telegramBotUrl: 't.me/no_scheme' }],
      ['socialLinks.facebook', { ...shopSettings, socialLinks: { ...shopSettings.socialLinks, facebook: 'data:text/html,hi' } }],
      ['supportEmail', { ...shopSettings, supportEmail: 'not-an-email' }],
      ['brandName', { ...shopSettings, brandName: '   ' }],
      ['displayCurrencies.0.code', { ...shopSettings, displayCurrencies: [{ code: 'USD', rate: 1 }] }],
      ['displayCurrencies.0.rate', { ...shopSettings, displayCurrencies: [{ code: 'EUR', rate: -1 }] }],
      [
        'wallets.1.number',
        {
          ...shopSettings,
          wallets: [
            { name: 'bKash', number: '017' },
            { name: 'Nagad', number: '' },
          ],
        },
      ],
      ['wallets', { ...shopSettings, wallets: 'bKash 017' }],
      ['providerChatUrl', { ...shopSettings, providerChatUrl: undefined }],
    ];
    for (const [path, json] of cases) {
      const bad = await api.call<ErrorBody>('PUT', '/api/settings', { user: admin, json });
      expect(bad.status, path).toBe(400);
      expect(
        bad.body.error.details!.map((d) => d.path),
        path,
      ).toContain(path);
    }
    expect(await settingsRow()).toEqual(before);
  });
});
