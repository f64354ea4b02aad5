import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiErrorBody } from '../../../../edge-api/src/contract/errors.ts';
import { settingsBody } from '../../../../edge-api/src/contract/settings-requests.ts';
import { defaultSettings, MAX_WALLETS, type SiteSettings } from '../../../../edge-api/src/contract/settings.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { AppError } from '../../lib/app-error.ts';
import { checkWith, problemsFromAnswer } from '../../lib/form-problems.ts';
import { addWallet, removeWallet, setSocial, setWallet, shiftWalletErrors } from './settings-form.ts';

let api: ApiHarness;
let admin: TestUser;

beforeAll(async () => {
  api = await createApiHarness();
  admin = await api.createUser('admin');
});
afterAll(() => api.close());

/** What the PWA's client makes of the server's answer to PUT /api/settings. */
async function refusalOf(settings: SiteSettings): Promise<AppError> {
  const { status, body } = await api.call<ApiErrorBody>('PUT', '/api/settings', { user: admin, json: settings });
  return new AppError(body.error.code, body.error.message, { status, details: body.error.details });
}

describe('settings field errors', () => {
  it("puts each of the server's validation messages on its field", async () => {
    let settings = setSocial({ ...defaultSettings, brandName: ' ', supportEmail: 'not-an-email' }, 'facebook', 'facebook dot com');
    settings = setWallet(settings, 1, 'number', '');
    const errors = problemsFromAnswer(await refusalOf(settings));
    expect(errors).toEqual({
      brandName: 'is required',
      supportEmail: 'must be an email address',
      'socialLinks.facebook': expect.stringMatching(/^must be a link/),
      'wallets.1.number': 'is required',
    });
  });

  it('finds before sending exactly the problems the server would answer: one set of rules', async () => {
    let settings = setSocial({ ...defaultSettings, brandName: ' ', supportPhone: 'call me' }, 'whatsapp', 'wa.me/123');
    settings = setWallet(addWallet(settings), 3, 'name', 'x'.repeat(41));
    const found = checkWith(settingsBody, settings);
    expect(Object.keys(found).sort()).toEqual(['brandName', 'socialLinks.whatsapp', 'supportPhone', 'wallets.3.name', 'wallets.3.number']);
    expect(found).toEqual(problemsFromAnswer(await refusalOf(settings)));
    expect(checkWith(settingsBody, defaultSettings)).toEqual({});
  });

  it('has no field errors for refusals that are not about fields', () => {
    expect(problemsFromAnswer(new AppError('forbidden', 'no', { status: 403 }))).toEqual({});
    expect(problemsFromAnswer(new TypeError('Failed to fetch'))).toEqual({});
  });

  it('moves wallet errors with their rows when a wallet is removed', () => {
    const errors = { brandName: 'is required', 'wallets.0.name': 'a', 'wallets.1.number': 'b', 'wallets.2.name': 'c' };
    expect(shiftWalletErrors(errors, 1)).toEqual({ brandName: 'is required', 'wallets.0.name': 'a', 'wallets.1.name': 'c' });
  });

  it('adds wallets up to the limit and removes the chosen one', () => {
    let settings: SiteSettings = { ...defaultSettings, wallets: [] };
    for (let i = 0; i < MAX_WALLETS + 2; i++) settings = addWallet(settings);
    expect(settings.wallets).toHaveLength(MAX_WALLETS);
    const three = {
      ...defaultSettings,
      wallets: [
        { name: 'a', number: '1' },
        { name: 'b', number: '2' },
        { name: 'c', number: '3' },
      ],
    };
    expect(removeWallet(three, 1).wallets.map((w) => w.name)).toEqual(['a', 'c']);
  });
});
