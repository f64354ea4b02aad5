import type { Session } from '@supabase/auth-js';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import type { ApiHarness, TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { ConfirmProvider } from '../../components/confirm-dialog.tsx';
import { ToastProvider } from '../../components/toast.tsx';
import { deleteUserDb, getPublicDb, getUserDb } from '../../db/local-db.ts';
import { createSyncEngine, type SyncEngine } from '../../db/sync-engine.ts';
import { api as client } from '../../lib/api-client.ts';
import { AuthContext } from '../../lib/auth.tsx';
import { shortOrderId } from '../../lib/order-rules.ts';
import { signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { CredentialsModal } from './credentials-modal.tsx';

// Decision 229: a delivery over one the customer already sees (a replacement, typed credentials or another
// kind on a delivered order) names the order and customer and asks first; a first delivery does not. On the
// real API app in-process, with the user signed in through its own auth (render-signed-in.tsx).

const kit = signedInKit();
let api: ApiHarness;
let admin: TestUser;
let customer: TestUser;
let accountService: string;
let linesService: Service;
let engine: SyncEngine;

beforeAll(async () => {
  api = kit.api();
  admin = await signInAs(api, 'admin');
  customer = await api.createUser('user', 'Dana Buyer');
  const account = await api.call<{ id: string }>('POST', '/api/services', {
    user: admin,
    json: { title: 'Wise Personal Account', description: 'Verified', category: 'wise', price: '30', deliveryTime: 'instant' },
  });
  accountService = account.body.id;
  const lines = await api.call<Service>('POST', '/api/services', {
    user: admin,
    json: { title: 'Proxy Lines', description: 'Residential', category: 'Other', price: '5', deliveryTime: '1hour', deliveryKind: 'lines' },
  });
  linesService = lines.body;
});
beforeEach(() => {
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
  await deleteUserDb(admin.id);
});

/** An order of the service, delivered first when `delivery` is given, as the admin's device holds it. */
async function orderOnDevice(productId: string, delivery?: Record<string, unknown>): Promise<Order> {
  const placed = await api.call<{ order: Order }>('POST', '/api/orders', { user: customer, json: { productId } });
  if (delivery) expect((await api.call('PUT', `/api/admin/orders/${placed.body.order.id}`, { user: admin, json: delivery })).status).toBe(200);
  const asStaff = await api.call<Order>('GET', `/api/admin/orders/${placed.body.order.id}`, { user: admin });
  await getUserDb(admin.id).orders.put(asStaff.body);
  return asStaff.body;
}

function renderModal(order: Order, replace: boolean) {
  render(
    <AuthContext value={{ status: 'signedIn', user: { id: admin.id, email: admin.email }, session: {} as Session }}>
      <ToastProvider>
        <ConfirmProvider>
          <CredentialsModal order={order} userId={admin.id} online replace={replace} onClose={() => {}} />
        </ConfirmProvider>
      </ToastProvider>
    </AuthContext>,
  );
}

const outbox = () => getUserDb(admin.id).outbox.toArray();
const tag = () => crypto.randomUUID().slice(0, 8);

describe('a change to what a customer sees as delivered is confirmed first', () => {
  it('names the order and customer before a replacement of WISE credentials, and cancelling queues nothing', async () => {
    const order = await orderOnDevice(accountService, { wiseEmail: `first-${tag()}@wise.test`, wisePassword: `First-${tag()}` });
    renderModal(order, true);
    fireEvent.change(screen.getByLabelText('WISE Email'), { target: { value: `second-${tag()}@wise.test` } });
    fireEvent.change(screen.getByLabelText('WISE Password'), { target: { value: `Second-${tag()}` } });
    fireEvent.click(screen.getByRole('button', { name: 'Approve & Deliver' }));

    const question = await screen.findByRole('dialog', { name: 'Change what the customer sees?' }, { timeout: 15_000 });
    expect(question.textContent).toContain(`Order #${shortOrderId(order.id)}: Wise Personal Account`);
    expect(question.textContent).toContain(order.userEmail);
    fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Change what the customer sees?' })).toBeNull());
    expect(await outbox()).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Approve & Deliver' }));
    const again = await screen.findByRole('dialog', { name: 'Change what the customer sees?' }, { timeout: 15_000 });
    fireEvent.click(within(again).getByRole('button', { name: `Change order #${shortOrderId(order.id)}` }));
    await waitFor(async () => expect((await outbox()).filter((entry) => entry.status === 'pending')).toHaveLength(1), { timeout: 15_000 });
  });

  it('asks before lines replace delivered lines, and not before a first delivery', async () => {
    await getPublicDb().services.put(linesService);
    const delivered = await orderOnDevice(linesService.id, { lines: [`old-${tag()}`] });
    renderModal(delivered, true);
    fireEvent.change(await screen.findByLabelText('Lines (one per line)'), { target: { value: `new-${tag()}` } });
    fireEvent.click(screen.getByRole('button', { name: 'Approve & Deliver' }));
    const question = await screen.findByRole('dialog', { name: 'Change what the customer sees?' }, { timeout: 15_000 });
    expect(question.textContent).toContain(`Order #${shortOrderId(delivered.id)}: Proxy Lines`);
    fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(await outbox()).toHaveLength(0);
    cleanup();

    const first = await orderOnDevice(linesService.id);
    renderModal(first, false);
    fireEvent.change(await screen.findByLabelText('Lines (one per line)'), { target: { value: `first-${tag()}` } });
    fireEvent.click(screen.getByRole('button', { name: 'Approve & Deliver' }));
    await waitFor(async () => expect((await outbox()).filter((entry) => entry.status === 'pending')).toHaveLength(1), { timeout: 15_000 });
    expect(screen.queryByRole('dialog', { name: 'Change what the customer sees?' })).toBeNull();
  });
});
