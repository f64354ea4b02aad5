import type { Session } from '@supabase/auth-js';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Order } from '../../../../edge-api/src/contract/orders.ts';
import type { ApiHarness, TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { nextWindowStart } from '../../../../edge-api/src/testing/limit-window.ts';
import { ConfirmProvider } from '../../components/confirm-dialog.tsx';
import { ToastProvider } from '../../components/toast.tsx';
import { deleteUserDb, getUserDb } from '../../db/local-db.ts';
import { AuthContext } from '../../lib/auth.tsx';
import { PAUSED_TITLE } from '../../lib/duplicate-check-problem.ts';
import { signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { CredentialsModal, UNCHECKED_MESSAGE } from './credentials-modal.tsx';

// Decision 076: the modal against the real API app in-process, whose limit on duplicate checks is 2 per
// staff member in 10 minutes, with the user signed in through its own auth (render-signed-in.tsx).

const LIMIT = 2;
const WINDOW_MS = 600_000;
const EXACT_TITLE = '⚠️ These exact credentials already exist in another order!';

let api: ApiHarness;
let admin: TestUser;
let customer: TestUser;
let serviceId: string;
/** The staff member of the test running: the modal's user, whose device holds the order. */
let staff: TestUser | undefined;
let checksSent = 0;
const email = `paused-${crypto.randomUUID().slice(0, 6)}@wise.test`;
const password = `Paused-${crypto.randomUUID().slice(0, 8)}`;
// The API's clock reads Date: it starts a second into a window of its own, so the wait is known (599 s).
const windowStart = nextWindowStart(WINDOW_MS);

const kit = signedInKit({ config: { rateLimits: { credentialChecksPer10Min: LIMIT } } });
beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(windowStart + 1_000);
  api = kit.api();
  // The checks the modal sends, counted as it sends them (the server counts only those that reach it).
  const toApp = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input instanceof Request ? input.url : input).includes('/api/admin/credentials/check')) checksSent += 1;
    return toApp(input, init);
  });
  [admin, customer] = await Promise.all([api.createUser('admin'), api.createUser('user')]);
  const service = await api.call<{ id: string }>('POST', '/api/services', {
    user: admin,
    json: { title: 'Wise Personal Account', description: 'Verified', category: 'wise', price: '30', deliveryTime: 'instant' },
  });
  serviceId = service.body.id;
  // Credentials delivered before: a check of them finds an exact duplicate.
  const earlier = (await api.call<{ order: Order }>('POST', '/api/orders', { user: customer, json: { productId: serviceId } })).body.order;
  const delivered = await api.call('PUT', `/api/admin/orders/${earlier.id}`, {
    user: admin,
    json: { paymentStatus: 'paid', orderStatus: 'delivered', wiseEmail: email, wisePassword: password },
  });
  expect(delivered.status).toBe(200);
});

afterAll(() => {
  vi.useRealTimers();
});

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  if (staff) await deleteUserDb(staff.id);
  staff = undefined;
});

/** A staff member who has run every check the window allows, through the real API. */
async function staffPastTheLimit(): Promise<TestUser> {
  const user = await signInAs(api, 'moderator');
  for (let i = 0; i < LIMIT; i += 1) {
    expect((await api.call('GET', `/api/admin/credentials/check?password=spent-${i}`, { user })).status).toBe(200);
  }
  staff = user;
  return user;
}

/** An order the customer placed, as the staff member's device holds it after seeing it on the orders page. */
async function orderOnDevice(user: TestUser): Promise<Order> {
  const placed = await api.call<{ order: Order }>('POST', '/api/orders', { user: customer, json: { productId: serviceId } });
  const asStaff = await api.call<Order>('GET', `/api/admin/orders/${placed.body.order.id}`, { user });
  await getUserDb(user.id).orders.put(asStaff.body);
  return asStaff.body;
}

/** How many checks the server has counted for this staff member in the current window. */
async function checksCounted(user: TestUser): Promise<number> {
  const { rows } = await sql<{ hits: number }>`select hits from rate_limits where key = ${`api.credential_checks:${user.id}`}`.execute(api.db);
  return Number(rows[0]?.hits ?? 0);
}

function renderModal(order: Order, user: TestUser) {
  render(
    <AuthContext value={{ status: 'signedIn', user: { id: user.id, email: user.email }, session: {} as Session }}>
      <ToastProvider>
        <ConfirmProvider>
          <CredentialsModal order={order} userId={user.id} online onClose={() => {}} />
        </ConfirmProvider>
      </ToastProvider>
    </AuthContext>,
  );
}

const typeCredentials = (wiseEmail: string, wisePassword: string) => {
  fireEvent.change(screen.getByLabelText('WISE Email'), { target: { value: wiseEmail } });
  fireEvent.change(screen.getByLabelText('WISE Password'), { target: { value: wisePassword } });
};
/** Longer than the typing pause after which a check goes (400 ms), on the test's clock. */
const pause = () => vi.advanceTimersByTimeAsync(700);

describe('Add WISE Credentials past the limit on duplicate checks', () => {
  it('says checks are paused and for how long, never that nothing was found, sends none meanwhile, and checks again once the pause is over', async () => {
    const user = await staffPastTheLimit();
    renderModal(await orderOnDevice(user), user);

    typeCredentials(email, password);
    const notice = (await screen.findByText(PAUSED_TITLE, {}, { timeout: 5000 })).closest('[role="status"]')!;
    expect(notice.textContent).toContain('They resume in about 10 minutes');
    expect(notice.textContent).toContain(UNCHECKED_MESSAGE);
    // These are exact duplicates, but no answer came: no banner claims anything either way.
    expect(screen.queryByText(EXACT_TITLE)).toBeNull();
    expect(screen.getByRole('button', { name: 'Approve & Deliver' })).toBeTruthy();
    const counted = await checksCounted(user);
    expect(counted).toBe(LIMIT + 1);

    // Typing on sends nothing while paused; the notice stays for whatever is typed. The modal's timers
    // run on the test's clock meanwhile: a check it scheduled would be sent, and counted, at once.
    const sent = checksSent;
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], now: Date.now() });
    typeCredentials(email, `${password}-x`);
    await pause();
    typeCredentials(email, password);
    await pause();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    expect(checksSent).toBe(sent);
    expect(await checksCounted(user)).toBe(counted);
    expect(screen.getByText(PAUSED_TITLE)).toBeTruthy();

    // The server's window is over: the next typing is checked, and the duplicate is found.
    vi.setSystemTime(windowStart + WINDOW_MS + 1_000);
    typeCredentials(email, `${password}-x`);
    typeCredentials(email, password);
    expect(await screen.findByText(EXACT_TITLE, {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.queryByText(PAUSED_TITLE)).toBeNull();
    expect(screen.getByRole('button', { name: 'Override & Deliver' })).toBeTruthy();
  });

  it('still lets the delivery be approved while paused, as when offline or when a check fails, with the notice shown', async () => {
    vi.setSystemTime(windowStart + 1_000);
    const user = await staffPastTheLimit();
    const order = await orderOnDevice(user);
    renderModal(order, user);

    typeCredentials(`fresh-${crypto.randomUUID().slice(0, 6)}@wise.test`, 'Fresh#Password-1');
    expect(await screen.findByText(PAUSED_TITLE, {}, { timeout: 5000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Approve & Deliver' }));
    await waitFor(async () => expect(await getUserDb(user.id).outbox.toArray()).toHaveLength(1));
    const [entry] = await getUserDb(user.id).outbox.toArray();
    expect(entry).toMatchObject({ name: 'deliverOrder', args: { orderId: order.id, wisePassword: 'Fresh#Password-1' } });
    // Approving asked nothing more of the paused server.
    expect(await checksCounted(user)).toBe(LIMIT + 1);
  });
});
