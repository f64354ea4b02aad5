import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { tellStaff } from '../operations/ticket-notices.ts';

/**
 * One support ticket in the demo shop (decision 169): the customer asks about the order whose payment
 * waits for a check, the shop answers, and the customer's follow-up waits in staff's queue with its bell.
 */
export async function seedDemoTicket(
  trx: Transaction<Database>,
  context: { version: number; now: number; admin: { id: string }; customer: { id: string; name: string } },
): Promise<void> {
  const { version, now, admin, customer } = context;
  const order = await trx.selectFrom('orders').select('id').where('user_id', '=', customer.id).where('payment_reference', '=', 'DEMO8K2X7Q').executeTakeFirst();
  const minute = 60_000;
  const id = crypto.randomUUID();
  const ticket = await trx
    .insertInto('tickets')
    .values({
      id,
      user_id: customer.id,
      order_id: order?.id ?? null,
      subject: 'When will my order be processed?',
      status: 'open',
      unread_by_staff: 1,
      last_message_at: new Date(now - 20 * minute),
      created_at: new Date(now - 90 * minute),
      updated_at: new Date(now - 20 * minute),
      version,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const adminName = (await trx.selectFrom('users').select('display_name').where('id', '=', admin.id).executeTakeFirst())?.display_name ?? '';
  const messages = [
    {
      author_id: customer.id,
      author_side: 'customer' as const,
      author_name: customer.name,
      body: 'I paid with bKash and sent the transaction id DEMO8K2X7Q. When will the order be processed?',
      at: 90,
    },
    {
      author_id: admin.id,
      author_side: 'staff' as const,
      author_name: adminName,
      body: 'Thanks! We check bKash payments within the hour and deliver right after.',
      at: 60,
    },
    {
      author_id: customer.id,
      author_side: 'customer' as const,
      author_name: customer.name,
      body: 'Great, thank you. Can you deliver it to the email on my account?',
      at: 20,
    },
  ];
  await trx
    .insertInto('ticket_messages')
    .values(messages.map(({ at, ...message }) => ({ id: crypto.randomUUID(), ticket_id: id, ...message, created_at: new Date(now - at * minute) })))
    .execute();
  await tellStaff(trx, version, ticket, customer.name, messages[2]!.body, false);
}
