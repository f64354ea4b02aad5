import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiErrorBody, SiteSettings } from '../../../../edge-api/src/contract.ts';
import { defaultSettings } from '../../../../edge-api/src/db/settings.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { ApiRequestError } from '../../lib/api-client.ts';
import { addWallet, fieldErrorsFrom, MAX_WALLETS, removeWallet, setSocial, setWallet, shiftWalletErrors } from './settings-form.ts';

let api: ApiHarness;
let admin: TestUser;

beforeAll(async () => {
  api = await createApiHarness();
  admin = await api.createUser('admin');
});
afterAll(() => api.close());

/** What the PWA's client makes of the server's answer to PUT /api/settings. */
async function refusalOf(settings: SiteSettings): Promise<ApiRequestError> {
  const { status, body } = await api.call<ApiErrorBody>('PUT', '/api/settings', { user: admin, json: settings });
  return new ApiRequestError(status, body.error.code, body.error.message, body.error.details);
}

describe('settings field errors', () => {
  it("puts each of the server's validation messages on its field", async () => {
    let settings = setSocial({ ...defaultSettings, brandName: ' ', supportEmail: 'not-an-email' }, 'facebook', 'facebook dot com');
    settings = setWallet(settings, 1, 'number', '');
    const errors = fieldErrorsFrom(await refusalOf(settings));
    expect(errors).toEqual({
      brandName: 'is required',
      supportEmail: 'must be an email address',
      'socialLinks.facebook': expect.stringMatching(/^must be a link/),
      'wallets.1.number': 'is required',
    });
  });

  it('has no field errors for refusals that are not about fields', () => {
    expect(fieldErrorsFrom(new ApiRequestError(403, 'forbidden', 'no'))).toEqual({});
    expect(fieldErrorsFrom(new TypeError('Failed to fetch'))).toEqual({});
  });

  it('moves wallet errors with their rows when a wallet is removed', () => {
    const errors = { brandName: 'is required', 'wallets.0.name': 'a', 'wallets.1.number': 'b', 'wallets.2.name': 'c' };
    expect(shiftWalletErrors(errors, 1)).toEqual({ brandName: 'is required', 'wallets.0.name': 'a', 'wallets.1.name': 'c' });
  });

  it('adds wallets up to the limit and removes the chosen one', () => {
    let settings: SiteSettings = { ...defaultSettings, wallets: [] };
    for (let i = 0; i < MAX_WALLETS + 2; i++) settings = addWallet(settings);
    expect(settings.wallets).toHaveLength(MAX_WALLETS);
    const three = { ...defaultSettings, wallets: [{ name: 'a', number: '1' }, { name: 'b', number: '2' }, { name: 'c', number: '3' }] };
    expect(removeWallet(three, 1).wallets.map((w) => w.name)).toEqual(['a', 'c']);
  });
});
