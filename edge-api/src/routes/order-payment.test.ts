import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../contract/orders.ts';
import type { SiteSettings } from '../contract/settings.ts';
import { nextVersion } from '../db/versions.ts';
import { createApiHarness, type ApiHarness, type TestUser } from '../testing/api-harness.ts';

interface ErrorBody {
  error: { code: string; message: string; details?: { path: string; message: string }[] };
}
interface Placed {
  success: true;
  order: Order;
}

let api: ApiHarness;
let admin: TestUser;
let moderator: TestUser;
let customer: TestUser;
let otherCustomer: TestUser;
let plainService: string;
let documentService: string;

async function insertService(fields: { title: string; needsDetails?: boolean; detailsHint?: string; paymentMethods?: string[] }) {
  const id = crypto.randomUUID();
  await api.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('services')
      .values({
        id,
        title: fields.title,
        description: 'Ready to use',
        category: 'editable-documents',
        features: '[]',
        popular: false,
        image: '',
        price: '$12',
        delivery_time: '2 hours',
        payment_methods: JSON.stringify(fields.paymentMethods ?? ['bkash', 'binance']),
        needs_details: fields.needsDetails ?? false,
        details_hint: fields.detailsHint ?? '',
        version: await nextVersion(trx),
      })
      .execute();
  });
  return id;
}

const place = (user: TestUser, json: Record<string, unknown>) => api.call<Placed & ErrorBody>('POST', '/api/orders', { user, json });

async function pendingOrder(user = customer) {
  const placed = await place(user, { productId: plainService, paymentMethod: 'bkash' });
  expect(placed.status).toBe(201);
  return placed.body.order;
}

/** Bytes that start like a PNG; `seed` makes them differ. */
function png(seed: number) {
  const bytes = new Uint8Array(256);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  for (let i = 8; i < bytes.length; i++) bytes[i] = (i * seed) % 251;
  return bytes;
}

async function uploadScreenshot(user: TestUser, bytes: Uint8Array) {
  const body = new FormData();
  body.append('kind', 'payment');
  body.append('file', new File([bytes as Uint8Array<ArrayBuffer>], 'paid.png', { type: 'image/png' }));
  const answer = await api.call<{ path: string; url: string } & ErrorBody>('POST', '/api/uploads', { user, body });
  expect(answer.status).toBe(201);
  return answer.body.path;
}

const sendProof = (user: TestUser, orderId: string, json: Record<string, unknown>) =>
  api.call<Order & ErrorBody>('PUT', `/api/orders/${orderId}/payment-proof`, { user, json });

const cancel = (user: TestUser, orderId: string) => api.call<Order & ErrorBody>('POST', `/api/orders/${orderId}/cancel`, { user });

const staffView = async (orderId: string) => (await api.call<Order>('GET', `/api/admin/orders/${orderId}`, { user: moderator })).body;

const storedRow = (id: string) => api.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

beforeAll(async () => {
  api = await createApiHarness();
  [admin, moderator, customer, otherCustomer] = await Promise.all([
    api.createUser('admin'),
    api.createUser('moderator'),
    api.createUser('user'),
    api.createUser('user'),
  ]);
  plainService = await insertService({ title: 'VPS' });
  documentService = await insertService({ title: 'Editable bank statement', needsDetails: true, detailsHint: 'Full name, address and the month wanted' });
});
afterAll(() => api.close());

describe('placing an order with a note and a payment method', () => {
  it('keeps the note and the chosen method on the order, for the customer and for staff', async () => {
    const placed = await place(customer, { productId: documentService, note: '  Jane Doe, 1 Main St, March  ', paymentMethod: 'BINANCE' });
    expect(placed.status).toBe(201);
    expect(placed.body.order).toMatchObject({ note: 'Jane Doe, 1 Main St, March', paymentMethod: 'binance', orderStatus: 'pending', paymentStatus: 'pending' });
    expect(await staffView(placed.body.order.id)).toMatchObject({ note: 'Jane Doe, 1 Main St, March', paymentMethod: 'binance' });
  });

  it('refuses an order without the details a service needs, naming the note and the hint, and stores nothing', async () => {
    const id = crypto.randomUUID();
    for (const note of [undefined, '   ']) {
      const refused = await place(customer, { id, productId: documentService, note });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details?.[0]).toEqual({
        path: 'note',
        message: 'This service needs details from you: Full name, address and the month wanted',
      });
    }
    expect(await api.db.selectFrom('orders').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
  });

  it('refuses a payment method the service does not take', async () => {
    const refused = await place(customer, { productId: plainService, paymentMethod: 'paypal' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details?.[0]?.path).toBe('paymentMethod');
  });

  it('still places an order the old way: no note, no method', async () => {
    const placed = await place(customer, { productId: plainService });
    expect(placed.status).toBe(201);
    expect(placed.body.order.note).toBeUndefined();
    expect(placed.body.order.paymentMethod).toBeUndefined();
  });

  it('lets an admin mark a service as needing details, with its hint', async () => {
    const created = await api.call<{ id: string; needsDetails: boolean; detailsHint: string }>('POST', '/api/services', {
      user: admin,
      json: {
        title: 'Editable ID',
        description: 'x',
        category: 'editable-documents',
        price: '5',
        deliveryTime: '1 day',
        needsDetails: true,
        detailsHint: 'Name and date of birth',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ needsDetails: true, detailsHint: 'Name and date of birth' });
    const read = await api.call<{ needsDetails: boolean; detailsHint: string }>('GET', `/api/services/${created.body.id}`);
    expect(read.body).toMatchObject({ needsDetails: true, detailsHint: 'Name and date of birth' });
  });
});

describe('payment instructions in the settings', () => {
  it('keeps the instructions per method, and a form that does not send them leaves them as they are', async () => {
    const current = (await api.call<SiteSettings>('GET', '/api/settings')).body;
    const instructions = [{ method: 'bkash', address: '01711000000', accountName: 'Shop Ltd', qrImage: '', instructions: 'Send Money, then paste the TrxID.' }];
    const saved = await api.call<SiteSettings>('PUT', '/api/settings', { user: admin, json: { ...current, paymentInstructions: instructions } });
    expect(saved.status).toBe(200);
    const { paymentInstructions: _dropped, ...withoutInstructions } = current;
    expect((await api.call('PUT', '/api/settings', { user: admin, json: { ...withoutInstructions, brandName: 'Renamed' } })).status).toBe(200);
    expect((await api.call<SiteSettings>('GET', '/api/settings')).body).toMatchObject({ brandName: 'Renamed', paymentInstructions: instructions });
  });

  it('refuses a method named twice or an instruction without an address', async () => {
    const current = (await api.call<SiteSettings>('GET', '/api/settings')).body;
    const entry = { method: 'bkash', address: '017', accountName: '', qrImage: '', instructions: '' };
    const twice = await api.call<ErrorBody>('PUT', '/api/settings', {
      user: admin,
      json: { ...current, paymentInstructions: [entry, { ...entry, method: 'BKASH' }] },
    });
    expect(twice.status).toBe(400);
    const blank = await api.call<ErrorBody>('PUT', '/api/settings', { user: admin, json: { ...current, paymentInstructions: [{ ...entry, address: ' ' }] } });
    expect(blank.status).toBe(400);
    expect(blank.body.error.details?.[0]?.path).toBe('paymentInstructions.0.address');
  });
});

describe('payment proofs', () => {
  it('shows staff the transaction id and screenshot a customer sent, and flags neither when they are new', async () => {
    const order = await pendingOrder();
    const screenshot = await uploadScreenshot(customer, png(3));
    const sent = await sendProof(customer, order.id, { transactionId: `TRX-${crypto.randomUUID()}`, screenshot });
    expect(sent.status).toBe(200);
    expect(sent.body.paymentProof?.screenshotUrl).toMatch(/^\/files\/order-proofs\/payments\//);
    const seen = await staffView(order.id);
    expect(seen.paymentProof).toMatchObject({ transactionId: sent.body.paymentProof!.transactionId });
    expect(seen.paymentProof?.screenshotUrl).toBeTruthy();
    expect(seen.paymentProof?.reusedTransactionIdOn).toBeUndefined();
    expect(seen.paymentProof?.reusedScreenshotOn).toBeUndefined();
    // The screenshot opens for staff.
    expect((await api.app.request(seen.paymentProof!.screenshotUrl!)).status).toBe(200);
  });

  it('flags to staff a transaction id already used on another order (any case), and not to the customer', async () => {
    const first = await pendingOrder();
    const second = await pendingOrder(otherCustomer);
    const trx = `abc-${crypto.randomUUID()}`;
    expect((await sendProof(customer, first.id, { transactionId: trx })).status).toBe(200);
    const reused = await sendProof(otherCustomer, second.id, { transactionId: trx.toUpperCase() });
    expect(reused.status).toBe(200);
    expect(reused.body.paymentProof?.reusedTransactionIdOn).toBeUndefined();
    expect((await staffView(second.id)).paymentProof?.reusedTransactionIdOn).toEqual([first.id]);
    expect((await staffView(first.id)).paymentProof?.reusedTransactionIdOn).toBeUndefined();
  });

  it('flags an identical screenshot (same bytes, another upload) used on another order, but not a different one', async () => {
    const [first, second, third] = [await pendingOrder(), await pendingOrder(otherCustomer), await pendingOrder(otherCustomer)];
    const bytes = png(7);
    expect((await sendProof(customer, first.id, { screenshot: await uploadScreenshot(customer, bytes) })).status).toBe(200);
    expect((await sendProof(otherCustomer, second.id, { screenshot: await uploadScreenshot(otherCustomer, bytes) })).status).toBe(200);
    expect((await sendProof(otherCustomer, third.id, { screenshot: await uploadScreenshot(otherCustomer, png(11)) })).status).toBe(200);
    expect((await staffView(second.id)).paymentProof?.reusedScreenshotOn).toEqual([first.id]);
    expect((await staffView(third.id)).paymentProof?.reusedScreenshotOn).toBeUndefined();
    expect((await storedRow(second.id)).payment_proof_hash).toBe((await storedRow(first.id)).payment_proof_hash);
  });

  it("refuses another customer's uploaded screenshot, even with its path known, and changes nothing (issue 30)", async () => {
    const order = await pendingOrder();
    const theirs = await uploadScreenshot(otherCustomer, png(17));
    expect(theirs).toMatch(new RegExp(`^order-proofs/payments/${otherCustomer.id}/`));
    const refused = await sendProof(customer, order.id, { screenshot: theirs });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ path: 'screenshot', message: 'must be a picture you uploaded: upload it again' }]);
    expect((await storedRow(order.id)).payment_proof).toBeNull();
  });

  it('keeps the screenshot when a transaction id follows it', async () => {
    const order = await pendingOrder();
    await sendProof(customer, order.id, { screenshot: await uploadScreenshot(customer, png(13)) });
    const later = await sendProof(customer, order.id, { transactionId: `T${crypto.randomUUID()}` });
    expect(later.status).toBe(200);
    expect(later.body.paymentProof?.screenshotUrl).toBeTruthy();
    expect(later.body.paymentProof?.transactionId).toMatch(/^T/);
  });

  it("refuses a proof for someone else's order, a paid order, an empty proof, and a screenshot that is not a payment upload", async () => {
    const order = await pendingOrder();
    expect((await sendProof(otherCustomer, order.id, { transactionId: 'X1' })).status).toBe(403);
    expect((await sendProof(customer, order.id, {})).status).toBe(400);
    expect((await sendProof(customer, order.id, { transactionId: 'has space' })).status).toBe(400);
    expect((await sendProof(customer, order.id, { screenshot: 'order-proofs/payments/missing.png' })).status).toBe(400);
    expect((await sendProof(customer, order.id, { screenshot: 'order-proofs/staff.png' })).status).toBe(400);
    expect((await storedRow(order.id)).proof_at).toBeNull();
    const paid = await api.call('PUT', `/api/admin/orders/${order.id}`, { user: moderator, json: { paymentStatus: 'paid' } });
    expect(paid.status).toBe(200);
    const late = await sendProof(customer, order.id, { transactionId: 'X2' });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toBe('This order is already paid: no proof is needed.');
  });
});

describe('a customer cancelling an order', () => {
  it('cancels a pending, unpaid order of their own, once (a replay answers the same order)', async () => {
    const order = await pendingOrder();
    const cancelled = await cancel(customer, order.id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ orderStatus: 'cancelled', paymentStatus: 'pending' });
    expect(cancelled.body.cancelledAt).toBeTruthy();
    const again = await cancel(customer, order.id);
    expect(again.status).toBe(200);
    expect(again.body.version).toBe(cancelled.body.version);
  });

  it("refuses someone else's order, and staff cancel through the status instead", async () => {
    const order = await pendingOrder();
    expect((await cancel(otherCustomer, order.id)).status).toBe(403);
    expect((await cancel(moderator, order.id)).status).toBe(403);
    expect((await storedRow(order.id)).order_status).toBe('pending');
  });

  it('refuses a paid order with a clear error, changing nothing', async () => {
    const order = await pendingOrder();
    expect((await api.call('PUT', `/api/admin/orders/${order.id}`, { user: moderator, json: { paymentStatus: 'paid' } })).status).toBe(200);
    const refused = await cancel(customer, order.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      'This order has already been marked paid, so it can no longer be cancelled. Contact the shop if you no longer want it.',
    );
    expect(await storedRow(order.id)).toMatchObject({ order_status: 'pending', payment_status: 'paid', cancelled_at: null });
  });

  it('refuses an order staff already started processing', async () => {
    const order = await pendingOrder();
    expect((await api.call('PUT', `/api/admin/orders/${order.id}`, { user: moderator, json: { orderStatus: 'processing' } })).status).toBe(200);
    const refused = await cancel(customer, order.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/already processing, so it can no longer be cancelled/);
  });

  it('allows cancelling an order whose payment failed', async () => {
    const order = await pendingOrder();
    expect((await api.call('PUT', `/api/admin/orders/${order.id}`, { user: moderator, json: { paymentStatus: 'failed' } })).status).toBe(200);
    expect((await cancel(customer, order.id)).body.orderStatus).toBe('cancelled');
  });

  it('a cancel racing a "paid" mark: exactly one lands, and the loser gets a clear error', async () => {
    for (let round = 0; round < 8; round++) {
      const order = await pendingOrder();
      const [cancelled, paid] = await Promise.all([
        cancel(customer, order.id),
        api.call<ErrorBody>('PUT', `/api/admin/orders/${order.id}`, { user: moderator, json: { paymentStatus: 'paid', base: { paymentStatus: 'pending' } } }),
      ]);
      const row = await storedRow(order.id);
      if (cancelled.status === 200) {
        expect(paid.status).toBe(409);
        expect(paid.body.error.message).toBe(
          'The customer cancelled this order, so it was not marked paid or delivered. If the payment did arrive, set the order status back first.',
        );
        expect(row).toMatchObject({ order_status: 'cancelled', payment_status: 'pending' });
      } else {
        expect(paid.status).toBe(200);
        expect(cancelled.status).toBe(409);
        expect(cancelled.body.error.message).toMatch(/already been marked paid/);
        expect(row).toMatchObject({ order_status: 'pending', payment_status: 'paid', cancelled_at: null });
      }
    }
  });

  it('a staff member who sees the cancel and sets the status back can then mark it paid', async () => {
    const order = await pendingOrder();
    await cancel(customer, order.id);
    expect((await api.call('PUT', `/api/admin/orders/${order.id}`, { user: moderator, json: { orderStatus: 'processing' } })).status).toBe(200);
    expect((await api.call('PUT', `/api/admin/orders/${order.id}`, { user: moderator, json: { paymentStatus: 'paid' } })).status).toBe(200);
  });
});
