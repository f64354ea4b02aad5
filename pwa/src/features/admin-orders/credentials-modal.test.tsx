import type { Session } from '@supabase/auth-js';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import type { WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import type { ApiHarness, TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { ConfirmProvider } from '../../components/confirm-dialog.tsx';
import { ToastProvider } from '../../components/toast.tsx';
import { deleteUserDb, getPublicDb, getUserDb } from '../../db/local-db.ts';
import { createSyncEngine, type SyncEngine } from '../../db/sync-engine.ts';
import { api as client } from '../../lib/api-client.ts';
import { AuthContext } from '../../lib/auth.tsx';
import { signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { CredentialsModal } from './credentials-modal.tsx';
import { DELIVERED_MESSAGE, SAVED_OFFLINE_MESSAGE, STOCK_TAKEN_MESSAGE } from './use-account-delivery.ts';
import { KIND_DELIVERED_MESSAGE } from './other-delivery-modal.tsx';

// The modal talks to the real API app in-process, with the user signed in through its own auth (render-signed-in.tsx).

let api: ApiHarness;
let admin: TestUser;
let customer: TestUser;
let serviceId: string;
let linesService: Service;
let network: 'up' | 'down' = 'up';
let engine: SyncEngine;

const kit = signedInKit({ unreachable: () => network === 'down' });
beforeAll(async () => {
  api = kit.api();
  admin = await signInAs(api, 'admin');
  customer = await api.createUser('user');
  const service = await api.call<{ id: string }>('POST', '/api/services', {
    user: admin,
    json: { title: 'Wise Personal Account', description: 'Verified', category: 'wise', price: '30', deliveryTime: 'instant' },
  });
  serviceId = service.body.id;
  const lines = await api.call<Service>('POST', '/api/services', {
    user: admin,
    json: { title: 'Proxy Lines', description: 'Residential', category: 'Other', price: '5', deliveryTime: '1hour', deliveryKind: 'lines' },
  });
  expect(lines.status).toBe(201);
  linesService = lines.body;
});

beforeEach(() => {
  network = 'up';
  // Pushes go through the app's own client, to the in-process API; the test says when to sync.
  engine = createSyncEngine({
    transport: { api: client, refreshSession: async () => false, sessionUserId: async () => admin.id },
    locks: null,
    autoSync: false,
  });
  engine.start(admin.id);
});

afterEach(async () => {
  cleanup();
  engine.stop();
  vi.restoreAllMocks();
  await deleteUserDb(admin.id);
});

const goOffline = () => {
  network = 'down';
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
};

/** An order the customer placed, as the admin's device holds it after seeing it on the orders page. */
async function orderOnDevice(productId = serviceId): Promise<Order> {
  const placed = await api.call<{ order: Order }>('POST', '/api/orders', { user: customer, json: { productId } });
  const asStaff = await api.call<Order>('GET', `/api/admin/orders/${placed.body.order.id}`, { user: admin });
  await getUserDb(admin.id).orders.put(asStaff.body);
  return asStaff.body;
}

async function stockOnServer(name: string): Promise<WiseStock> {
  const created = await api.call<WiseStock>('POST', '/api/wise-stocks', {
    user: admin,
    json: {
      wiseName: name,
      wiseEmail: `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 6)}@wise.test`,
      wisePassword: `Pw-${name}`,
      authImage: 'https://img.example/auth.png',
      userName: 'Demo Admin',
    },
  });
  expect(created.status).toBe(201);
  return created.body;
}

function renderModal(order: Order, online: boolean) {
  const onClose = vi.fn();
  render(
    <AuthContext value={{ status: 'signedIn', user: { id: admin.id, email: admin.email }, session: {} as Session }}>
      <ToastProvider>
        <ConfirmProvider>
          <CredentialsModal order={order} userId={admin.id} online={online} onClose={onClose} />
        </ConfirmProvider>
      </ToastProvider>
    </AuthContext>,
  );
  return onClose;
}

const typeCredentials = (email: string, password: string) => {
  fireEvent.change(screen.getByLabelText('WISE Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('WISE Password'), { target: { value: password } });
};
const outbox = () => getUserDb(admin.id).outbox.toArray();

describe('Add WISE Credentials', () => {
  it("offers the server's available stock through the device, and delivers the one picked", async () => {
    const order = await orderOnDevice();
    const stock = await stockOnServer('Karim');
    const onClose = renderModal(order, true);

    fireEvent.click(await screen.findByRole('button', { name: `Use stock account Karim (${stock.wiseEmail})` }));
    expect(screen.getByText(/Using stock account/).textContent).toContain(stock.wiseEmail);
    expect((await getUserDb(admin.id).wiseStocks.get(stock.id))?.status).toBe('available');

    fireEvent.click(screen.getByRole('button', { name: 'Approve & Deliver' }));
    // The duplicate check answers before the delivery is queued: on a loaded machine, over a second.
    await waitFor(async () => expect(await outbox()).toHaveLength(1), { timeout: 10_000 });
    await engine.syncNow();

    expect(await screen.findByText(DELIVERED_MESSAGE)).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
    const onServer = await api.db.selectFrom('orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
    expect(onServer).toMatchObject({ stock_id: stock.id, payment_status: 'paid', order_status: 'delivered' });
    expect((await getUserDb(admin.id).wiseStocks.get(stock.id))?.status).toBe('sold');
  });

  it("offers the service's own account stock (decision 072) and delivers the item picked, by its id", async () => {
    const order = await orderOnDevice();
    const email = `own-${crypto.randomUUID().slice(0, 6)}@wise.test`;
    const added = await api.call<{ id: string }>('POST', '/api/service-stocks', {
      user: admin,
      json: { serviceId, account: { email, password: 'Own-Stock-Pass-1', name: 'Own Account' } },
    });
    expect(added.status).toBe(201);
    await engine.syncNow();
    const onClose = renderModal(order, true);

    const field = await screen.findByLabelText("From this service's stock", {}, { timeout: 10_000 });
    fireEvent.change(field, { target: { value: added.body.id } });
    // The typed fields and the WISE stock step aside: the item is delivered as it is.
    expect(screen.queryByLabelText('WISE Email')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Approve & Deliver' }));
    await waitFor(async () => expect(await outbox()).toHaveLength(1), { timeout: 10_000 });
    expect((await outbox())[0]!.args).toMatchObject({ serviceStockId: added.body.id });
    await engine.syncNow();

    expect(await screen.findByText(DELIVERED_MESSAGE)).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
    const onServer = await api.db.selectFrom('orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
    expect(onServer).toMatchObject({ service_stock_id: added.body.id, wise_email: email, order_status: 'delivered' });
  });

  it('warns of credentials delivered before, and delivers them again only after a confirmation', async () => {
    const earlier = await orderOnDevice();
    const password = `Dup-${crypto.randomUUID().slice(0, 8)}`;
    const delivered = await api.call('PUT', `/api/admin/orders/${earlier.id}`, {
      user: admin,
      json: { paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: 'dup@wise.test', wisePassword: password },
    });
    expect(delivered.status).toBe(200);
    renderModal(await orderOnDevice(), true);

    typeCredentials('DUP@wise.test', password);
    expect(await screen.findByText('⚠️ These exact credentials already exist in another order!', {}, { timeout: 3000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Override & Deliver' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deliver duplicate credentials?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Deliver duplicate credentials?' })).toBeNull());
    expect(await outbox()).toHaveLength(0);
  });

  it('offline, refuses what the API would refuse before queuing, then queues the delivery and says it is saved', async () => {
    const order = await orderOnDevice();
    goOffline();
    const onClose = renderModal(order, false);

    typeCredentials('not an email', 'Secret#1');
    fireEvent.click(screen.getByRole('button', { name: 'Approve & Deliver' }));
    expect((await screen.findByRole('alert')).textContent).toBe('WISE Email must be an email address');
    expect(await outbox()).toHaveLength(0);

    typeCredentials('buyer@wise.test', 'Secret#1');
    fireEvent.click(screen.getByRole('button', { name: 'Approve & Deliver' }));
    expect(await screen.findByText(SAVED_OFFLINE_MESSAGE)).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
    const [entry] = await outbox();
    expect(entry).toMatchObject({
      name: 'deliverOrder',
      status: 'pending',
      args: { orderId: order.id, wiseEmail: 'buyer@wise.test', wisePassword: 'Secret#1' },
    });
    expect(await getUserDb(admin.id).orders.get(order.id)).toMatchObject({ orderStatus: 'delivered', paymentStatus: 'paid', wiseEmail: 'buyer@wise.test' });
  });

  it('offline, says a stock sold meanwhile was taken, queues nothing, and offers the stock list again', async () => {
    const order = await orderOnDevice();
    const stock = await stockOnServer('Rafi');
    await getUserDb(admin.id).wiseStocks.put(stock);
    goOffline();
    const onClose = renderModal(order, false);

    fireEvent.click(await screen.findByRole('button', { name: `Use stock account Rafi (${stock.wiseEmail})` }));
    // Sold elsewhere, as the last sync before the connection dropped brought it.
    await getUserDb(admin.id).wiseStocks.update(stock.id, { status: 'sold', version: stock.version + 1 });
    fireEvent.click(screen.getByRole('button', { name: 'Approve & Deliver' }));

    expect((await screen.findByRole('alert')).textContent).toBe(STOCK_TAKEN_MESSAGE);
    expect(screen.getByLabelText('Search available accounts by name or email')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    expect(await outbox()).toHaveLength(0);
    expect((await getUserDb(admin.id).orders.get(order.id))?.orderStatus).toBe('pending');
  });
});

describe('Deliver Lines (a service that delivers lines, decision 069)', () => {
  /** The device knows the service delivers lines, so the modal asks for lines. */
  async function linesOrderOnDevice() {
    await getPublicDb().services.put(linesService);
    return orderOnDevice(linesService.id);
  }
  const typeLines = async (text: string) => fireEvent.change(await screen.findByLabelText('Lines (one per line)'), { target: { value: text } });
  /** Approve, wait for the delivery in the outbox, and push it as the sync engine would. */
  async function approveAndSync(label = 'Approve & Deliver') {
    fireEvent.click(screen.getByRole('button', { name: label }));
    await waitFor(async () => expect((await outbox()).filter((entry) => entry.status === 'pending')).toHaveLength(1));
    await engine.syncNow();
  }

  it('queues the delivery, and once the server confirms it says so and closes', async () => {
    const order = await linesOrderOnDevice();
    const onClose = renderModal(order, true);

    await typeLines(`10.0.0.1:${crypto.randomUUID().slice(0, 8)}`);
    await approveAndSync();

    expect(await screen.findByText(KIND_DELIVERED_MESSAGE)).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
    const onServer = await api.db.selectFrom('orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
    expect(onServer).toMatchObject({ delivery_kind: 'lines', payment_status: 'paid', order_status: 'delivered' });
  });

  it('shows a refusal of lines delivered before on the form, leaves no failed change behind, and delivers on Override', async () => {
    const line = `dup-${crypto.randomUUID().slice(0, 8)}:1080`;
    const earlier = await linesOrderOnDevice();
    expect((await api.call('PUT', `/api/admin/orders/${earlier.id}`, { user: admin, json: { lines: [line] } })).status).toBe(200);
    const order = await orderOnDevice(linesService.id);
    const onClose = renderModal(order, true);

    await typeLines(line);
    await approveAndSync();

    expect(await screen.findByText('1 of these lines is already delivered to another order. Deliver it anyway?')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    // The form still holds everything, so the refused change is not kept in the failed list as well.
    await waitFor(async () => expect(await outbox()).toHaveLength(0));

    await approveAndSync('Override & Deliver');
    expect(await screen.findByText(KIND_DELIVERED_MESSAGE)).toBeTruthy();
    expect(onClose).toHaveBeenCalled();
    const audit = await api.db.selectFrom('audit_log').selectAll().where('entity_id', '=', order.id).where('action', '=', 'order.deliver').execute();
    expect(audit.map((entry) => entry.details)).toMatchObject([{ deliveryKind: 'lines', overrideDuplicates: true }]);
  });
});
