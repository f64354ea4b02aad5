import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type SiteSettings } from '../contract/settings.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';

/**
 * Decision 241: the admin's display currencies round-trip through the settings, and the public read of
 * the settings (which every storefront screen uses, signed in or not) exposes the list with its rates.
 */
let api: ApiHarness;
let admin: TestUser;

type ErrorBody = { error: { code: string; details?: { path: string; message: string }[] } };

beforeAll(async () => {
  api = await createApiHarness();
  admin = await api.createUser('admin');
});
afterAll(() => api.close());

describe('display currencies in the settings', () => {
  it('saves the admin list, answers it to an anonymous visitor, and keeps it when a body leaves it out', async () => {
    const { displayCurrencies: _none, ...withoutList } = defaultSettings;
    const json = {
      ...defaultSettings,
      displayCurrencies: [
        { code: ' gbp ', rate: 0.79 },
        { code: 'BDT', rate: 121.5 },
      ],
    };
    const saved = await api.call<SiteSettings>('PUT', '/api/settings', { user: admin, json });
    expect(saved.status).toBe(200);
    const expected = [
      { code: 'GBP', rate: 0.79 },
      { code: 'BDT', rate: 121.5 },
    ];
    expect(saved.body.displayCurrencies).toEqual(expected);

    const anonymous = await api.call<SiteSettings>('GET', '/api/settings');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.displayCurrencies).toEqual(expected);

    // A form that does not know the list (an older client) keeps it.
    const kept = await api.call<SiteSettings>('PUT', '/api/settings', { user: admin, json: { ...withoutList, brandName: 'Other Name' } });
    expect(kept.status).toBe(200);
    expect((await api.call<SiteSettings>('GET', '/api/settings')).body).toMatchObject({ brandName: 'Other Name', displayCurrencies: expected });
  });

  it('refuses a list with a bad rate, a repeated code or the shop currency, naming the row, and keeps the saved list', async () => {
    const before = (await api.call<SiteSettings>('GET', '/api/settings')).body.displayCurrencies;
    const cases: [string, unknown][] = [
      [
        'displayCurrencies.1.rate',
        [
          { code: 'EUR', rate: 0.92 },
          { code: 'JPY', rate: 0 },
        ],
      ],
      ['displayCurrencies.0.rate', [{ code: 'EUR', rate: 0.1234567 }]],
      ['displayCurrencies.0.code', [{ code: 'usd', rate: 1 }]],
      [
        'displayCurrencies',
        [
          { code: 'EUR', rate: 0.92 },
          { code: 'eur', rate: 0.93 },
        ],
      ],
    ];
    for (const [path, displayCurrencies] of cases) {
      const bad = await api.call<ErrorBody>('PUT', '/api/settings', { user: admin, json: { ...defaultSettings, displayCurrencies } });
      expect(bad.status, path).toBe(400);
      expect(
        bad.body.error.details?.map((detail) => detail.path),
        path,
      ).toContain(path);
    }
    expect((await api.call<SiteSettings>('GET', '/api/settings')).body.displayCurrencies).toEqual(before);
  });
});
