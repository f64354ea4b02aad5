import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { getUserDb } from '../db/local-db.ts';
import { vaultSealFor } from '../db/vault-seal.ts';
import { lockVault } from '../db/vault-session.ts';
import { enableVault } from '../db/vault.ts';
import { AppError } from '../lib/app-error.ts';
import { AuthContext } from '../lib/auth.tsx';
import { MaskedSecret } from './masked-secret.tsx';
import { ToastProvider } from './toast.tsx';
import { signedInKit, signInAs } from '../test/render-signed-in.tsx';
import { useMemoryOpfs } from '../test/memory-opfs.ts';
import { setDeviceKeyRoot } from '../db/device-seal.ts';

// The vault checks its PIN on the server (decision 181): the app's fetches go to the real API in process,
// with a user signed in through its own auth (render-signed-in.tsx).
const kit = signedInKit();
beforeAll(async () => {
  await signInAs(kit.api());
});

afterEach(() => {
  cleanup();
  lockVault();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const button = () => screen.getByRole('button', { name: /password of Arif Hossain/ });

describe('MaskedSecret', () => {
  it('shows dots until its button is tapped, and masks again on Hide', () => {
    render(<MaskedSecret label="password of Arif Hossain" value="Wise#Arif2026" />);
    expect(screen.queryByText('Wise#Arif2026')).toBeNull();
    expect(screen.getByText('••••••••••••')).toBeTruthy();
    expect(button().getAttribute('aria-pressed')).toBe('false');
    expect(button().textContent).toBe('Show password of Arif Hossain');

    fireEvent.click(button());
    expect(screen.getByText('Wise#Arif2026')).toBeTruthy();
    expect(button().getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(button());
    expect(screen.queryByText('Wise#Arif2026')).toBeNull();
  });

  it('masks the secret again after a while by itself', () => {
    vi.useFakeTimers();
    render(<MaskedSecret label="password of Arif Hossain" value="Wise#Arif2026" hideAfterMs={30_000} />);
    fireEvent.click(button());
    expect(screen.getByText('Wise#Arif2026')).toBeTruthy();
    act(() => vi.advanceTimersByTime(29_000));
    expect(screen.getByText('Wise#Arif2026')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.queryByText('Wise#Arif2026')).toBeNull();
  });

  it('asks a reveal function at each look and shows its answer, or says it failed', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const reveal = vi.fn<() => Promise<string>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue('From#Server1');
    render(<MaskedSecret label="password of Arif Hossain" reveal={reveal} />);
    await act(async () => fireEvent.click(button()));
    expect(screen.getByRole('alert').textContent).toBe('Could not show it. Try again.');
    expect(screen.queryByText('From#Server1')).toBeNull();

    await act(async () => fireEvent.click(button()));
    expect(screen.getByText('From#Server1')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(button());
    await act(async () => fireEvent.click(button()));
    expect(reveal).toHaveBeenCalledTimes(3);
  });

  it("says until when past the staff's reveal budget (429), rather than to try again at once", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const limited = new AppError('rate_limited', 'Too many requests: try again in 90 seconds', { status: 429, retryAfterMs: 90_000 });
    const reveal = vi.fn<() => Promise<string>>().mockRejectedValue(limited);
    // Half a minute into 10:00 on this clock: 90 seconds later is 10:02, wherever the test runs.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 29, 10, 0, 30));
    try {
      render(<MaskedSecret label="password of Arif Hossain" reveal={reveal} />);
      await act(async () => fireEvent.click(button()));
      const at = new Date(2026, 10, 29, 10, 2).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
      expect(screen.getByRole('alert').textContent).toBe(`You have shown many passwords in a short time: Show works again at ${at}.`);
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks for the unlock while the vault holds the secret sealed and locked, then shows it', async () => {
    const db = getUserDb('vault-masked-secret');
    await enableVault(db, '135790', { iterations: 1_000 });
    const sealed = (await (await vaultSealFor(db)).seal('Wise#Sealed2026')) as string;
    act(() => lockVault());
    render(
      <MemoryRouter>
        <AuthContext value={{ status: 'signedIn', user: { id: 'vault-masked-secret', email: 'v@example.test' } }}>
          <MaskedSecret label="password of Arif Hossain" value={sealed} />
        </AuthContext>
      </MemoryRouter>,
    );
    expect(button().textContent).toBe('Unlock to show the password of Arif Hossain');
    fireEvent.click(button());
    const dialog = await screen.findByRole('dialog', { name: 'Unlock passwords' }, { timeout: 10_000 });
    expect(document.body.textContent).not.toContain('Wise#Sealed2026');
    fireEvent.change(within(dialog).getByLabelText('PIN'), { target: { value: '135790' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('Wise#Sealed2026', {}, { timeout: 10_000 })).toBeTruthy();
    expect(button().textContent).toBe('Hide password of Arif Hossain');
  });

  it('offers Copy at once for a secret in clear, and for a sealed one only once it is shown', async () => {
    const db = getUserDb('vault-masked-copy');
    await enableVault(db, '135790', { iterations: 1_000 });
    const sealed = (await (await vaultSealFor(db)).seal('Sealed#Copy1')) as string;
    const { unmount } = render(
      <ToastProvider>
        <MaskedSecret label="password" value="Clear#Copy1" copy={{ label: 'Password' }} />
      </ToastProvider>,
    );
    expect(screen.getByRole('button', { name: 'Copy password' })).toBeTruthy();
    unmount();

    render(
      <MemoryRouter>
        <AuthContext value={{ status: 'signedIn', user: { id: 'vault-masked-copy', email: 'v@example.test' } }}>
          <ToastProvider>
            <MaskedSecret label="password" value={sealed} copy={{ label: 'Password' }} />
          </ToastProvider>
        </AuthContext>
      </MemoryRouter>,
    );
    // Copying the sealed text would hand the customer a useless string.
    expect(screen.queryByRole('button', { name: 'Copy password' })).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /password/ })));
    expect(await screen.findByText('Sealed#Copy1')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy password' })).toBeTruthy();
  });

  it('offers Copy at once for a secret sealed with the device key, the vault off (decision 254)', async () => {
    useMemoryOpfs();
    try {
      const db = getUserDb('device-masked-copy');
      const sealed = (await (await vaultSealFor(db)).sealDelivered('Device#Copy1')) as string;
      expect(sealed).toMatch(/^dev1\./);
      render(
        <MemoryRouter>
          <AuthContext value={{ status: 'signedIn', user: { id: 'device-masked-copy', email: 'd@example.test' } }}>
            <ToastProvider>
              <MaskedSecret label="password" value={sealed} copy={{ label: 'Password' }} />
            </ToastProvider>
          </AuthContext>
        </MemoryRouter>,
      );
      expect(await screen.findByRole('button', { name: 'Copy password' })).toBeTruthy();
      expect(screen.queryByText('Device#Copy1')).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: /password/, pressed: false }));
      expect(await screen.findByText('Device#Copy1')).toBeTruthy();
    } finally {
      setDeviceKeyRoot(async () => null);
    }
  });
});
