import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Order } from '../../../edge-api/src/contract/orders.ts';
import { getUserDb, type OutboxEntry } from '../db/local-db.ts';
import { createSyncEngine, type SyncEngine } from '../db/sync-engine.ts';
import { OfflineBanner } from './offline-banner.tsx';

let engine: SyncEngine;
let userId: string;

const order = (id: string): Order => ({
  id,
  productId: crypto.randomUUID(),
  title: 'Wise account',
  description: '',
  category: 'wise',
  image: '',
  price: '30',
  deliveryTime: 'instant',
  userId: crypto.randomUUID(),
  userEmail: 'buyer@example.test',
  userName: 'Buyer',
  paymentStatus: 'pending',
  orderStatus: 'pending',
  orderDate: new Date().toISOString(),
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  version: 3,
});

const entry = (fields: Partial<OutboxEntry> & Pick<OutboxEntry, 'name' | 'args'>): OutboxEntry => ({
  id: crypto.randomUUID(),
  createdAt: new Date().toISOString(),
  status: 'pending',
  attempts: 0,
  ...fields,
});

function setOnline(online: boolean) {
  Object.defineProperty(navigator, 'onLine', { value: online, configurable: true });
}

beforeEach(() => {
  userId = crypto.randomUUID();
});
afterEach(() => {
  cleanup();
  engine?.stop();
  setOnline(true);
});

function startEngine() {
  // The transport is never used: nothing here syncs.
  engine = createSyncEngine({
    transport: { api: null as never, refreshSession: async () => false, sessionUserId: async () => null },
    locks: null,
    autoSync: false,
  });
  engine.start(userId);
}

describe('OfflineBanner', () => {
  it('says the app is offline and how many changes wait', async () => {
    setOnline(false);
    const db = getUserDb(userId);
    await db.outbox.bulkAdd([
      entry({ name: 'setOrderStatus', args: { orderId: 'a', orderStatus: 'processing', version: 1 } }),
      entry({ name: 'setPaymentStatus', args: { orderId: 'b', paymentStatus: 'paid', version: 1 } }),
    ]);
    startEngine();
    render(<OfflineBanner />);
    expect(await screen.findByText('You are offline.')).toBeTruthy();
    expect(await screen.findByText('2 changes waiting to sync.')).toBeTruthy();
  });

  it('shows nothing when online with nothing waiting', async () => {
    startEngine();
    const { container } = render(<OfflineBanner />);
    await waitFor(() => expect(container.textContent).toBe(''));
  });

  it('lists a refused change with the reason, and retries or dismisses it', async () => {
    const db = getUserDb(userId);
    const row = order(crypto.randomUUID());
    await db.orders.put(row);
    const refused = entry({
      name: 'setOrderStatus',
      args: { orderId: row.id, orderStatus: 'processing', version: 2 },
      status: 'failed',
      error: 'This order was changed by someone else; reload and try again',
      target: { table: 'orders', id: row.id },
    });
    const other = entry({ name: 'setPaymentStatus', args: { orderId: row.id, paymentStatus: 'paid', version: 2 }, status: 'failed', error: 'Forbidden' });
    await db.outbox.bulkAdd([refused, other]);
    startEngine();
    render(<OfflineBanner />);

    expect(await screen.findByText('2 changes could not be saved. Show details')).toBeTruthy();
    expect(screen.getByText(/This order was changed by someone else/)).toBeTruthy();

    const refusedItem = screen.getByText(/This order was changed by someone else/).closest('li')!;
    fireEvent.click(within(refusedItem).getByRole('button', { name: 'Retry' }));
    await waitFor(async () => expect((await db.outbox.get(refused.id))?.status).toBe('pending'));
    // Sent again on top of the row as it is now, and shown again on the row.
    expect((await db.outbox.get(refused.id))?.args.version).toBe(3);
    expect((await db.orders.get(row.id))?.orderStatus).toBe('processing');

    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss' }));
    await waitFor(async () => expect(await db.outbox.get(other.id)).toBeUndefined());
    expect(await screen.findByText('1 change waiting to sync…')).toBeTruthy();
    expect(screen.queryByText(/could not be saved/)).toBeNull();
  });
});
