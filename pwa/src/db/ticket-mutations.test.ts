import { describe, expect, it } from 'vitest';
import { getUserDb } from './local-db.ts';
import { closeTicket, openTicket, replyTicket } from './mutations.ts';

const now = new Date().toISOString();

describe('support ticket changes on the device (decision 170)', () => {
  it('a ticket opened and answered offline shows at once and waits in the outbox once per message', async () => {
    const userId = crypto.randomUUID();
    const db = getUserDb(userId);
    await db.users.put({ uid: userId, email: 'me@example.test', displayName: 'Me', mobile: '', userRole: 'user', createdAt: now, updatedAt: now, version: 1 });
    const id = crypto.randomUUID();
    await openTicket(userId, { id, messageId: crypto.randomUUID(), subject: 'Login', body: 'It fails' }).saved;
    const messageId = crypto.randomUUID();
    await replyTicket(userId, { ticketId: id, messageId, body: 'Still failing' }).saved;
    await replyTicket(userId, { ticketId: id, messageId, body: 'Still failing' }).saved;
    const ticket = await db.tickets.get(id);
    expect(ticket).toMatchObject({ subject: 'Login', status: 'open', userName: 'Me' });
    expect(ticket?.messages.map((m) => [m.side, m.body])).toEqual([
      ['customer', 'It fails'],
      ['customer', 'Still failing'],
    ]);
    expect((await db.outbox.toArray()).map((entry) => entry.name).sort()).toEqual(['openTicket', 'replyTicket']);
    expect(await db.outbox.get(messageId)).toMatchObject({ target: { table: 'tickets', id } });
    await closeTicket(userId, { ticketId: id }).saved;
    expect((await db.tickets.get(id))?.status).toBe('closed');
  });
});
