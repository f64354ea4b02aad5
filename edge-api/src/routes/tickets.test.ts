import { beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../contract/orders.ts';
import type { SyncResponse } from '../contract/sync.ts';
import type { Ticket, TicketList } from '../contract/tickets.ts';
import type { ReceiptMail } from '../operations/receipts.ts';
import type { TestUser } from '../testing/api-harness.ts';
import { errorPaths, orderTestBench, random, type ErrorBody } from '../testing/order-fixtures.ts';

// Issue 27, item 1: support tickets (decisions 169-171).

const bench = orderTestBench();
let stranger: TestUser;
const mails: ReceiptMail[] = [];

beforeAll(async () => {
  stranger = await bench.api.createUser('user', 'stranger');
  await bench.api.db.updateTable('services').set({ warranty_days: 7 }).where('id', '=', bench.orders.serviceId).execute();
  // The shop's mail, as the Node entry wires it (the local mailbox in development): what was sent is kept here.
  if (bench.api.mode === 'in-process') bench.api.deps.mailer = { send: async (mail) => void mails.push(mail) };
});

type Answer = Ticket & ErrorBody;
const open = (user: TestUser, fields: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  bench.api.call<Answer>('POST', '/api/tickets', {
    user,
    headers,
    json: { id: crypto.randomUUID(), messageId: crypto.randomUUID(), subject: `Help ${random()}`, body: 'My account does not work', ...fields },
  });
const reply = (user: TestUser, id: string, body: string, messageId: string = crypto.randomUUID(), headers?: Record<string, string>) =>
  bench.api.call<Answer>('POST', `/api/tickets/${id}/messages`, { user, json: { id: messageId, body }, headers });
const read = (user: TestUser, id: string) => bench.api.call<Answer>('GET', `/api/tickets/${id}`, { user });
const openNotices = (ticketId: string) =>
  bench.api.db.selectFrom('notifications').selectAll().where('dedupe_key', '=', `ticket:${ticketId}`).where('resolved_at', 'is', null).execute();

describe('opening and answering', () => {
  it('a customer opens a ticket about their order; staff are told by the bell; the customer is told of the answer by push and email', async () => {
    const { customer, moderator, orders } = bench;
    await bench.api.db
      .insertInto('push_subscriptions')
      .values({ user_id: customer.id, endpoint: `https://push.example.test/${random()}`, p256dh: 'k', auth: 'a', device_id: 'd', device_label: 'Phone' })
      .execute();
    const orderId = await orders.placeOrder(customer);
    const opened = await open(customer, { orderId, subject: 'Where is my order?' });
    expect(opened.status).toBe(200);
    expect(opened.headers.get('cache-control')).toBe('no-store');
    expect(opened.body).toMatchObject({ orderId, orderTitle: 'Wise Personal Account', status: 'open', unreadByStaff: 1, unreadByCustomer: 0 });
    expect(opened.body.messages).toHaveLength(1);
    expect(await openNotices(opened.body.id)).toHaveLength(1);

    const queue = await bench.api.call<TicketList>('GET', '/api/tickets?status=open', { user: moderator });
    expect(queue.body.tickets.map((t) => t.id)).toContain(opened.body.id);
    expect(queue.body.unread).toBeGreaterThanOrEqual(1);

    const answered = await reply(moderator, opened.body.id, 'It is on its way.');
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: 'waiting', unreadByCustomer: 1, unreadByStaff: 0 });
    expect(answered.body.messages.map((m) => m.side)).toEqual(['customer', 'staff']);
    expect(await openNotices(opened.body.id)).toHaveLength(0);
    if (bench.api.mode === 'in-process') {
      // Queued for the customer's devices. A worker posts it at once (waitUntil) and the row is gone by now:
      // push.test.ts shows the worker's sending under workerd.
      const pushes = await bench.api.db.selectFrom('push_outbox').selectAll().where('user_id', '=', customer.id).execute();
      expect(pushes.map((p) => p.payload)).toContainEqual(expect.objectContaining({ title: 'Support replied', url: `/support#ticket-${opened.body.id}` }));
      const mail = mails.find((m) => m.to === customer.email && m.subject.includes('Where is my order?'));
      expect(mail?.text).toContain('It is on its way.');
      expect(await bench.api.db.selectFrom('mail_outbox').selectAll().execute()).toHaveLength(0);
    }
    // The customer's bell (decision 141): their list counts the answered ticket until they read it.
    const mine = await bench.api.call<TicketList>('GET', '/api/tickets', { user: customer });
    expect(mine.body.unread).toBe(1);
    expect(mine.body.tickets.find((t) => t.id === opened.body.id)?.unreadByCustomer).toBe(1);
    const seen = await bench.api.call<Answer>('POST', `/api/tickets/${opened.body.id}/read`, { user: customer });
    expect(seen.body.unreadByCustomer).toBe(0);
    expect((await bench.api.call<TicketList>('GET', '/api/tickets', { user: customer })).body.unread).toBe(0);
    // The customer's own follow-up never rings their bell.
    expect((await reply(customer, opened.body.id, 'Thanks!')).body.unreadByCustomer).toBe(0);
  });

  it('either side closes; a new message reopens it', async () => {
    const opened = await open(bench.customer);
    const closed = await bench.api.call<Answer>('POST', `/api/tickets/${opened.body.id}/close`, { user: bench.customer });
    expect(closed.body.status).toBe('closed');
    expect(closed.body.closedAt).not.toBeNull();
    expect(await openNotices(opened.body.id)).toHaveLength(0);
    const again = await reply(bench.customer, opened.body.id, 'Actually, one more thing');
    expect(again.body).toMatchObject({ status: 'open', closedAt: null });
    expect(await openNotices(opened.body.id)).toHaveLength(1);
    const byStaff = await bench.api.call<Answer>('POST', `/api/tickets/${opened.body.id}/close`, { user: bench.moderator });
    expect(byStaff.body.status).toBe('closed');
    const staffAgain = await reply(bench.moderator, opened.body.id, 'Did that help?');
    expect(staffAgain.body.status).toBe('waiting');
  });

  it('staff filter the queue and assign a ticket to a staff member, never to a customer', async () => {
    const { admin, moderator, customer } = bench;
    const opened = await open(customer);
    const assigned = await bench.api.call<Answer>('PUT', `/api/tickets/${opened.body.id}/assignee`, { user: admin, json: { assigneeId: moderator.id } });
    expect(assigned.body).toMatchObject({ assigneeId: moderator.id, assigneeName: expect.stringContaining('moderator') });
    const mine = await bench.api.call<TicketList>('GET', '/api/tickets?assignee=me', { user: moderator });
    expect(mine.body.tickets.map((t) => t.id)).toEqual([opened.body.id]);
    const refused = await bench.api.call<Answer>('PUT', `/api/tickets/${opened.body.id}/assignee`, { user: admin, json: { assigneeId: customer.id } });
    expect(refused.status).toBe(400);
    expect(errorPaths(refused.body)).toEqual(['assigneeId']);
    expect((await read(admin, opened.body.id)).body.assigneeId).toBe(moderator.id);
    const waiting = await bench.api.call<TicketList>('GET', '/api/tickets?status=waiting', { user: moderator });
    expect(waiting.body.tickets.every((t) => t.status === 'waiting')).toBe(true);
  });
});

describe('pictures', () => {
  it('a message carries pictures its author uploaded (images only), shown with a URL the browser can load', async () => {
    const png = new Uint8Array(64);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const picture = (file: Uint8Array, name: string, type: string) => {
      const body = new FormData();
      body.append('kind', 'ticket');
      body.append('file', new File([file as Uint8Array<ArrayBuffer>], name, { type }));
      return bench.api.call<{ path: string } & ErrorBody>('POST', '/api/uploads', { user: bench.customer, body });
    };
    const uploaded = await picture(png, 'screen.png', 'image/png');
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.path).toMatch(new RegExp(`^order-proofs/tickets/${bench.customer.id}/`));
    const notImage = await picture(new TextEncoder().encode('plain text'), 'notes.png', 'image/png');
    expect(notImage.status).toBe(415);
    const opened = await open(bench.customer, { images: [uploaded.body.path] });
    expect(opened.status).toBe(200);
    const [image] = opened.body.messages[0]!.images;
    expect(image?.path).toBe(uploaded.body.path);
    const served = await bench.api.app.request(image!.url);
    expect(served.status).toBe(200);
    // Staff may not attach the customer's picture as their own.
    const borrowed = await bench.api.call<Answer>('POST', `/api/tickets/${opened.body.id}/messages`, {
      user: bench.moderator,
      json: { id: crypto.randomUUID(), body: 'x', images: [uploaded.body.path] },
    });
    expect(borrowed.status).toBe(400);
  });
});

describe('who may do what', () => {
  it('a customer reads and answers only their own tickets, and sees only theirs in the list', async () => {
    const opened = await open(bench.customer);
    expect((await read(stranger, opened.body.id)).status).toBe(404);
    expect((await reply(stranger, opened.body.id, 'me too')).status).toBe(404);
    expect((await bench.api.call('POST', `/api/tickets/${opened.body.id}/close`, { user: stranger })).status).toBe(404);
    const list = await bench.api.call<TicketList>('GET', '/api/tickets', { user: stranger });
    expect(list.body.tickets).toEqual([]);
    expect((await read(bench.customer, opened.body.id)).body.messages).toHaveLength(1);
  });

  it('a customer cannot open a ticket on someone else order, nor attach a picture they did not upload', async () => {
    const othersOrder = await bench.orders.placeOrder(stranger);
    const refused = await open(bench.customer, { orderId: othersOrder });
    expect(refused.status).toBe(400);
    expect(errorPaths(refused.body)).toEqual(['orderId']);
    const notMine = await open(bench.customer, { images: [`order-proofs/tickets/${stranger.id}/a.png`] });
    expect(notMine.status).toBe(400);
    expect(errorPaths(notMine.body)).toEqual(['images.0']);
    const count = await bench.api.db.selectFrom('tickets').select('id').where('user_id', '=', bench.customer.id).where('order_id', '=', othersOrder).execute();
    expect(count).toEqual([]);
  });

  it('customers cannot assign or make warranty reports; moderators answer but only admins delete', async () => {
    const opened = await open(bench.customer);
    expect((await bench.api.call('PUT', `/api/tickets/${opened.body.id}/assignee`, { user: bench.customer, json: { assigneeId: null } })).status).toBe(403);
    expect((await bench.api.call('POST', `/api/tickets/${opened.body.id}/warranty-report`, { user: bench.customer })).status).toBe(403);
    expect((await reply(bench.moderator, opened.body.id, 'Hello from a moderator')).status).toBe(200);
    expect((await bench.api.call('DELETE', `/api/tickets/${opened.body.id}`, { user: bench.moderator })).status).toBe(403);
    expect((await bench.api.call('DELETE', `/api/tickets/${opened.body.id}`, { user: bench.customer })).status).toBe(403);
    expect((await read(bench.customer, opened.body.id)).status).toBe(200);
    expect((await bench.api.call('DELETE', `/api/tickets/${opened.body.id}`, { user: bench.admin })).status).toBe(204);
    expect((await read(bench.customer, opened.body.id)).status).toBe(404);
    expect((await read(bench.admin, opened.body.id)).status).toBe(404);
    const audit = await bench.orders.auditRows(opened.body.id);
    expect(audit.map((row) => row.action)).toContain('ticket.delete');
  });
});

describe('a change sent twice is applied once', () => {
  it('a reply replayed with its key, or with its message id alone, is one message', async () => {
    const opened = await open(bench.customer);
    const messageId = crypto.randomUUID();
    const key = crypto.randomUUID();
    const first = await reply(bench.customer, opened.body.id, 'Sent offline', messageId, { 'Idempotency-Key': key });
    const replay = await reply(bench.customer, opened.body.id, 'Sent offline', messageId, { 'Idempotency-Key': key });
    const noKey = await reply(bench.customer, opened.body.id, 'Sent offline', messageId);
    expect([first.status, replay.status, noKey.status]).toEqual([200, 200, 200]);
    expect(noKey.body.messages.filter((m) => m.id === messageId)).toHaveLength(1);
    expect(noKey.body.unreadByStaff).toBe(2);
    const other = await reply(bench.customer, opened.body.id, 'Another text', crypto.randomUUID(), { 'Idempotency-Key': key });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('idempotency_mismatch');
    expect((await read(bench.customer, opened.body.id)).body.messages).toHaveLength(2);
  });

  it('a ticket opened twice with the same ids is one ticket; its id cannot be taken by someone else', async () => {
    const fields = { id: crypto.randomUUID(), messageId: crypto.randomUUID(), subject: 'Once', body: 'Only once' };
    expect((await open(bench.customer, fields)).status).toBe(200);
    expect((await open(bench.customer, fields)).body.messages).toHaveLength(1);
    expect((await open(stranger, { ...fields, messageId: crypto.randomUUID() })).status).toBe(409);
  });
});

describe('staff turn a ticket into a warranty report', () => {
  it('in one step for a delivered order under warranty; the customer is told on the ticket', async () => {
    const orderId = await bench.orders.placeOrder(bench.customer);
    expect((await bench.orders.deliverTyped(orderId, `w-${random()}@wise.test`, `Pw-${random()}`)).status).toBe(200);
    const opened = await open(bench.customer, { orderId, body: 'The login fails since today' });
    const made = await bench.api.call<Answer>('POST', `/api/tickets/${opened.body.id}/warranty-report`, {
      user: bench.moderator,
      headers: { 'Idempotency-Key': 'w1' },
    });
    expect(made.status).toBe(200);
    expect(made.body.status).toBe('waiting');
    expect(made.body.messages.at(-1)?.body).toContain('warranty report');
    const order = await bench.orders.orderRow(orderId);
    expect(order).toMatchObject({ report_status: 'open', report_reason: 'other' });
    expect(order.report_note).toContain('The login fails since today');
    const again = await bench.api.call<Answer>('POST', `/api/tickets/${opened.body.id}/warranty-report`, {
      user: bench.moderator,
      headers: { 'Idempotency-Key': 'w1' },
    });
    expect(again.body.messages).toHaveLength(made.body.messages.length);
    // A second report while the first is open is refused, as a customer's would be.
    const twice = await bench.api.call<Answer>('POST', `/api/tickets/${opened.body.id}/warranty-report`, { user: bench.moderator });
    expect(twice.body.error.code).toBe('report_open');
    const customerView = await bench.api.call<Order[]>('GET', `/api/orders/user/${bench.customer.id}`, { user: bench.customer });
    expect(customerView.body.find((o) => o.id === orderId)?.report?.status).toBe('open');
  });

  it('is refused for an order not delivered, and for a general ticket', async () => {
    const orderId = await bench.orders.placeOrder(bench.customer);
    const aboutOrder = await open(bench.customer, { orderId });
    const refused = await bench.api.call<Answer>('POST', `/api/tickets/${aboutOrder.body.id}/warranty-report`, { user: bench.moderator });
    expect(refused.body.error.code).toBe('not_delivered');
    expect((await bench.orders.orderRow(orderId)).report_status).toBeNull();
    const general = await open(bench.customer);
    const none = await bench.api.call<Answer>('POST', `/api/tickets/${general.body.id}/warranty-report`, { user: bench.moderator });
    expect(none.status).toBe(409);
  });
});

describe('sync', () => {
  const pull = (user: TestUser, cursor = 0) => bench.api.call<SyncResponse>('GET', `/api/sync?scope=private&cursor=${cursor}`, { user });

  it('brings a customer their own tickets with every message, staff all of them, and a deletion as a tombstone', async () => {
    const opened = await open(bench.customer);
    await reply(bench.moderator, opened.body.id, 'Answer from the shop');
    const mine = await pull(bench.customer);
    const synced = mine.body.changes.tickets?.find((t) => t.id === opened.body.id);
    expect(synced?.messages.map((m) => m.body)).toEqual(['My account does not work', 'Answer from the shop']);
    expect((await pull(stranger)).body.changes.tickets ?? []).toEqual([]);
    // Staff's first pull on a shared database (the Workers suite's) holds many pages of orders: read them all.
    const staffTickets: string[] = [];
    for (let cursor = 0, more = true; more;) {
      const page = (await pull(bench.moderator, cursor)).body;
      staffTickets.push(...(page.changes.tickets ?? []).map((t) => t.id));
      [cursor, more] = [page.cursor, page.hasMore];
    }
    expect(staffTickets).toContain(opened.body.id);

    const cursor = mine.body.cursor;
    await reply(bench.customer, opened.body.id, 'Thanks');
    const delta = await pull(bench.customer, cursor);
    expect(delta.body.changes.tickets?.map((t) => t.messages.length)).toEqual([3]);
    await bench.api.call('DELETE', `/api/tickets/${opened.body.id}`, { user: bench.admin });
    const gone = await pull(bench.customer, delta.body.cursor);
    expect(gone.body.deleted.tickets).toEqual([opened.body.id]);
  });
});
