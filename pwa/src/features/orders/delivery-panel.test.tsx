import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import { getUserDb } from '../../db/local-db.ts';
import { vaultSealFor } from '../../db/vault-seal.ts';
import { lockVault } from '../../db/vault-session.ts';
import { enableVault } from '../../db/vault.ts';
import { AuthContext } from '../../lib/auth.tsx';
import { ToastProvider } from '../../components/toast.tsx';
import { DeliveryPanel } from './delivery-panel.tsx';
import { signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { useMemoryOpfs } from '../../test/memory-opfs.ts';
import { setDeviceKeyRoot } from '../../db/device-seal.ts';

// The vault checks its PIN on the server (decision 181): the app's fetches go to the real API in process,
// with a user signed in through its own auth (render-signed-in.tsx).
const kit = signedInKit();
beforeAll(async () => {
  await signInAs(kit.api());
});

afterEach(() => {
  cleanup();
  lockVault();
});

const LINES = ['10.0.0.1:8080:proxy:First-Line-1', '10.0.0.2:8080:proxy:Second-Line-2'];
const order = (deliveryLines: unknown) => ({ id: 'order-lines', title: 'Proxy pack', deliveryKind: 'lines', deliveryLines }) as unknown as Order;

function renderPanel(userId: string, lines: unknown) {
  render(
    <MemoryRouter>
      <AuthContext value={{ status: 'signedIn', user: { id: userId, email: 'lines@example.test' } }}>
        <ToastProvider>
          <DeliveryPanel order={order(lines)} userId={userId} />
        </ToastProvider>
      </AuthContext>
    </MemoryRouter>,
  );
}

describe('DeliveryPanel, lines', () => {
  it('lists lines in clear with their count, each masked with Show and Copy, and a Copy of all', () => {
    renderPanel('lines-clear', LINES);
    expect(screen.getByText('2 lines')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy all lines' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy line 2' })).toBeTruthy();
    expect(document.body.textContent).not.toContain('Second-Line-2');
    fireEvent.click(screen.getByRole('button', { name: 'Show line 2' }));
    expect(screen.getByText(LINES[1]!)).toBeTruthy();
  });

  it('asks for the unlock when the vault holds the lines sealed, then lists them (decision 068)', async () => {
    const db = getUserDb('lines-sealed');
    await enableVault(db, '135790', { iterations: 1_000 });
    const sealed = await (await vaultSealFor(db)).seal(LINES);
    lockVault();
    renderPanel('lines-sealed', sealed);
    expect(document.body.textContent).toContain('The lines are locked on this device.');
    expect(screen.queryByRole('button', { name: /Copy/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Unlock the delivered lines' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unlock passwords' }, { timeout: 10_000 });
    fireEvent.change(within(dialog).getByLabelText('PIN'), { target: { value: '135790' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('2 lines', {}, { timeout: 10_000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show line 1' }));
    expect(screen.getByText(LINES[0]!)).toBeTruthy();
  });

  it('opens lines sealed with the device key at once, with the vault off (decision 254)', async () => {
    useMemoryOpfs();
    try {
      const db = getUserDb('lines-device');
      const sealed = await (await vaultSealFor(db)).sealDelivered(LINES);
      expect(String(sealed)).toMatch(/^dev1\./);
      renderPanel('lines-device', sealed);
      expect(await screen.findByText('2 lines', {}, { timeout: 10_000 })).toBeTruthy();
      expect(document.body.textContent).not.toContain('locked');
      fireEvent.click(screen.getByRole('button', { name: 'Show line 2' }));
      expect(screen.getByText(LINES[1]!)).toBeTruthy();
    } finally {
      setDeviceKeyRoot(async () => null);
    }
  });
});
