import type { Session } from '@supabase/auth-js';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withDefaultSettings, type SiteSettings } from '../../../../edge-api/src/contract/settings.ts';
import type { ApiHarness, TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { ToastProvider } from '../../components/toast.tsx';
import { AuthContext } from '../../lib/auth.tsx';
import { StaffRoleProvider } from '../../lib/authorization.tsx';
import { signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { SettingsPage } from './settings-page.tsx';

// The settings page talks to the real API app in-process, with the user
// signed in through its own auth (render-signed-in.tsx).

const kit = signedInKit();
let api: ApiHarness;
let admin: TestUser;

beforeAll(async () => {
  api = kit.api();
  admin = await signInAs(api, 'admin');
});
afterEach(cleanup);

const stored = async () => {
  const row = await api.db.selectFrom('settings').select('value').where('id', '=', 'site').executeTakeFirst();
  return withDefaultSettings(row?.value as Partial<SiteSettings> | undefined).displayCurrencies;
};

async function openSettings() {
  render(
    <AuthContext value={{ status: 'signedIn', user: { id: admin.id, email: 'admin@demo.test' }, session: {} as Session }}>
      <ToastProvider>
        <MemoryRouter>
          <StaffRoleProvider role="admin">
            <SettingsPage />
          </StaffRoleProvider>
        </MemoryRouter>
      </ToastProvider>
    </AuthContext>,
  );
  const heading = await screen.findByRole('heading', { name: 'Display currencies' }, { timeout: 10_000 });
  return within(heading.closest('section')!);
}

const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save Settings' }));
const chooseFile = (section: ReturnType<typeof within>, name: string, text: string) =>
  fireEvent.change(section.getByLabelText('Import rates from a file'), { target: { files: [new File([text], name, { type: 'text/plain' })] } });

describe('Settings → Display currencies (decision 241)', () => {
  it("adds a currency, shows the API's rule on the rate field, and saves it once corrected", async () => {
    const section = await openSettings();
    section.getByText('None: prices show in USD only.');
    fireEvent.click(section.getByRole('button', { name: 'Add Currency' }));
    fireEvent.change(section.getByLabelText('Currency 1 code'), { target: { value: 'eur' } });
    fireEvent.change(section.getByLabelText('Currency 1 rate per 1 USD'), { target: { value: '0' } });
    save();
    const rate = section.getByLabelText('Currency 1 rate per 1 USD');
    await waitFor(() => expect(rate.getAttribute('aria-invalid')).toBe('true'));
    expect(section.getByText('Rate must be more than 0')).toBeTruthy();
    expect(await stored()).toEqual([]);

    fireEvent.change(rate, { target: { value: '0.92' } });
    expect(rate.getAttribute('aria-invalid')).toBeNull();
    section.getByText('$10 ≈ €9.20');
    save();
    await screen.findByText('Settings saved successfully');
    expect(await stored()).toEqual([{ code: 'EUR', rate: 0.92 }]);
  });

  it('previews a rate file, names each bad row by its line, uses nothing until they are dropped, and saves only on Save', async () => {
    // The EUR saved by the test above.
    const section = await openSettings();
    await waitFor(() => expect((section.getByLabelText('Currency 1 code') as HTMLInputElement).value).toBe('EUR'));
    chooseFile(section, 'rates.csv', 'code,rate\nGBP,0.79\nUSD,1\n\nBDT,abc\neur,0.93\n');
    await section.findByText("Line 3: code is the shop's own currency (USD)");
    section.getByText('Line 5: rate must be a number such as 0.92');
    const use = section.getByRole('button', { name: 'Use These Rates' });
    expect((use as HTMLButtonElement).disabled).toBe(true);
    // What each good row does to the list.
    section.getByRole('cell', { name: 'new' });
    section.getByRole('cell', { name: 'was 0.92' });

    fireEvent.click(section.getByRole('button', { name: 'Drop the 2 rows with errors' }));
    expect(section.queryByText(/^Line \d/)).toBeNull();
    fireEvent.click(section.getByRole('button', { name: 'Use These Rates' }));
    section.getByText('2 rates from rates.csv are in the list: Save Settings to keep them.');
    expect((section.getByLabelText('Currency 1 rate per 1 USD') as HTMLInputElement).value).toBe('0.93');
    expect((section.getByLabelText('Currency 2 code') as HTMLInputElement).value).toBe('GBP');
    expect(await stored()).toEqual([{ code: 'EUR', rate: 0.92 }]);

    save();
    await screen.findByText('Settings saved successfully');
    expect(await stored()).toEqual([
      { code: 'EUR', rate: 0.93 },
      { code: 'GBP', rate: 0.79 },
    ]);
  });

  it('reads a JSON file of code to rate, naming the line of a bad rate, and says when a file cannot be read', async () => {
    const section = await openSettings();
    chooseFile(section, 'rates.json', '{\n  "JPY": 151.2,\n  "INR": -3\n}\n');
    await section.findByText('Line 3: rate must be more than 0');
    expect((section.getByRole('button', { name: 'Use These Rates' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(section.getByRole('button', { name: 'Cancel Import' }));
    expect(section.queryByText('Line 3: rate must be more than 0')).toBeNull();
    chooseFile(section, 'rates.json', '{"JPY": 151.2,');
    expect((await section.findByRole('alert')).textContent).toMatch(/^rates\.json: The file is not valid JSON/);
  });
});
