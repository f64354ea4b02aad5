import type { Session } from '@supabase/auth-js';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import type { ServiceStock } from '../../../../edge-api/src/contract/service-stocks.ts';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import type { ApiHarness, TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { ConfirmProvider } from '../../components/confirm-dialog.tsx';
import { ToastProvider } from '../../components/toast.tsx';
import { deleteUserDb, getUserDb } from '../../db/local-db.ts';
import { AuthContext } from '../../lib/auth.tsx';
import { StaffRoleProvider } from '../../lib/authorization.tsx';
import { shortOrderId } from '../../lib/order-rules.ts';
import { signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { ServiceStockDialog } from './service-stock-dialog.tsx';

// Decision 228: a service's own stock dialog offers the Wise stock's password change in place (checked
// first: decision 221) and its import batches, on the real API app in-process, with the user
// signed in through its own auth (render-signed-in.tsx).

const kit = signedInKit();
let api: ApiHarness;
let admin: TestUser;
let customer: TestUser;

beforeAll(async () => {
  api = kit.api();
  admin = await signInAs(api, 'admin');
  customer = await api.createUser('user');
});
afterEach(async () => {
  cleanup();
  await deleteUserDb(admin.id);
});

const tag = () => crypto.randomUUID().slice(0, 6);

async function serverService(): Promise<Service> {
  const created = await api.call<Service>('POST', '/api/services', {
    user: admin,
    json: { title: `VPS ${tag()}`, description: 'Servers', category: 'Other', price: '9', deliveryTime: '1hour', deliveryKind: 'server' },
  });
  expect(created.status).toBe(201);
  return created.body;
}

/** The device's copy, as the sync keeps it: secrets masked. */
async function keepOnDevice(serviceId: string) {
  const items = (await api.call<ServiceStock[]>('GET', `/api/service-stocks?serviceId=${serviceId}`, { user: admin })).body;
  await getUserDb(admin.id).serviceStocks.bulkPut(items.map(({ password: _password, ...item }) => ({ ...item, secretMasked: true as const })));
  return items;
}

function renderDialog(service: Service, role: 'admin' | 'moderator') {
  render(
    <AuthContext value={{ status: 'signedIn', user: { id: admin.id, email: admin.email }, session: {} as Session }}>
      <StaffRoleProvider role={role}>
        <ToastProvider>
          <ConfirmProvider>
            <ServiceStockDialog service={service} online onClose={() => {}} />
          </ConfirmProvider>
        </ToastProvider>
      </StaffRoleProvider>
    </AuthContext>,
  );
}

describe("a password change in place in a service's stock", () => {
  it('names the order and customer first, asks for the password twice under the account rules, and the order shows it', async () => {
    const service = await serverService();
    const host = `s${tag()}.example.net`;
    const added = await api.call<ServiceStock>('POST', '/api/service-stocks', {
      user: admin,
      json: { serviceId: service.id, server: { host, port: 22, user: 'root', password: `Old-${tag()}-pw` } },
    });
    const placed = await api.call<{ order: Order }>('POST', '/api/orders', { user: customer, json: { productId: service.id } });
    const orderId = placed.body.order.id;
    expect((await api.call('PUT', `/api/admin/orders/${orderId}`, { user: admin, json: { serviceStockId: added.body.id } })).status).toBe(200);
    await keepOnDevice(service.id);
    await getUserDb(admin.id).orders.put({ ...placed.body.order, userName: 'Carol Buyer' });

    renderDialog(service, 'admin');
    fireEvent.click(await screen.findByRole('button', { name: `Change password of root@${host}:22` }, { timeout: 5_000 }));
    const modal = await screen.findByRole('dialog', { name: 'Change Password' });
    // The customer's name comes from the device's copy of the order, read a moment after the modal opens.
    await waitFor(() =>
      expect(within(modal).getByTestId('rotation-reaches').textContent).toContain(`order #${shortOrderId(orderId)} of Carol Buyer will show the new password`),
    );

    const submit = within(modal).getByRole('button', { name: `Change password of order #${shortOrderId(orderId)}` });
    fireEvent.change(within(modal).getByLabelText('New password'), { target: { value: 'short' } });
    fireEvent.change(within(modal).getByLabelText('Confirm new password'), { target: { value: 'short' } });
    fireEvent.click(submit);
    expect((await within(modal).findByRole('alert')).textContent).toMatch(/at least 6 characters/);
    const next = `Next-${tag()}-pw`;
    fireEvent.change(within(modal).getByLabelText('New password'), { target: { value: next } });
    fireEvent.change(within(modal).getByLabelText('Confirm new password'), { target: { value: `${next}x` } });
    fireEvent.click(submit);
    expect((await within(modal).findByRole('alert')).textContent).toBe('The two passwords do not match.');
    const mine = async () => (await api.call<Order[]>('GET', `/api/orders/user/${customer.id}`, { user: customer })).body.find((o) => o.id === orderId)!;
    expect((await mine()).serverPassword).not.toBe(next);

    fireEvent.change(within(modal).getByLabelText('Confirm new password'), { target: { value: next } });
    fireEvent.click(submit);
    expect(await screen.findByText(/Password changed\. Order #.* now shows the new password/, {}, { timeout: 5_000 })).toBeTruthy();
    expect((await mine()).serverPassword).toBe(next);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Change Password' })).toBeNull());
  });

  it('is offered to admins only, for a password (not lines)', async () => {
    const service = await serverService();
    await api.call('POST', '/api/service-stocks', {
      user: admin,
      json: { serviceId: service.id, server: { host: `m${tag()}.example.net`, port: 22, user: 'root', password: `Mod-${tag()}-pw` } },
    });
    await keepOnDevice(service.id);
    renderDialog(service, 'moderator');
    await screen.findByRole('list', { name: 'Stock items' }, { timeout: 5_000 });
    expect(screen.queryByRole('button', { name: /^Change password of/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Withdraw/ })).toBeNull();
  });
});

describe("import batches of a service's stock", () => {
  it("lists each import as a batch and withdraws a batch's available items once confirmed", async () => {
    const service = await serverService();
    const imported = await api.call<{ id: string }>('POST', '/api/service-stocks/batch', {
      user: admin,
      json: {
        id: crypto.randomUUID(),
        serviceId: service.id,
        label: 'Spare logins',
        text: `a${tag()}.example.net,22,root,B1-${tag()}-pw\nb${tag()}.example.net,22,root,B2-${tag()}-pw`,
      },
    });
    expect(imported.status).toBe(201);
    await keepOnDevice(service.id);
    renderDialog(service, 'admin');
    const panel = await screen.findByRole('region', { name: 'Import batches' }, { timeout: 5_000 });
    expect(within(panel).getByText('Spare logins')).toBeTruthy();
    expect(within(panel).getByText(/2 imported by .* · 2 available/)).toBeTruthy();

    fireEvent.click(within(panel).getByRole('button', { name: 'Withdraw available items of batch Spare logins' }));
    const confirm = await screen.findByRole('dialog', { name: 'Withdraw this batch?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Withdraw available' }));
    expect(await screen.findByText('Withdrew 2 available items of batch “Spare logins”', {}, { timeout: 5_000 })).toBeTruthy();
    const rows = await api.db.selectFrom('service_stocks').select('status').where('batch_id', '=', imported.body.id).execute();
    expect(rows.map((row) => row.status)).toEqual(['disabled', 'disabled']);
    await waitFor(() => expect(within(panel).getByText(/2 imported by .* · 0 available · 2 withdrawn/)).toBeTruthy(), { timeout: 5_000 });
    const list = screen.getByRole('list', { name: 'Stock items' });
    await waitFor(() => expect(within(list).getAllByText('Withdrawn')).toHaveLength(2), { timeout: 5_000 });
  });
});
