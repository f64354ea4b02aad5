import { useLiveQuery } from 'dexie-react-hooks';
import type { Ticket, TicketStatus } from '../../../../edge-api/src/contract/tickets.ts';
import { useUserDb } from '../../db/hooks.ts';
import { requestSync } from '../../db/sync-engine.ts';
import { api, unwrap } from '../../lib/api-client.ts';

/** The tickets on this device, the latest message first; undefined while they load. */
export function useDeviceTickets(status?: TicketStatus): Ticket[] | undefined {
  const db = useUserDb();
  return useLiveQuery(async () => {
    if (!db) return [];
    const rows = status ? await db.tickets.where('status').equals(status).toArray() : await db.tickets.toArray();
    return rows.sort((a, b) => b.lastMessageAt.localeCompare(a.lastMessageAt));
  }, [db, status]);
}

/** The ticket a page names in its address (#ticket-<id>, where a notification points). */
export const ticketFromHash = (hash: string) => /^#ticket-([0-9a-f-]{36})$/i.exec(hash)?.[1] ?? null;

/** The caller's side has read the ticket: said to the server when online, then pulled back. */
export async function markRead(ticketId: string): Promise<void> {
  await unwrap(api.tickets[':id'].read.$post({ param: { id: ticketId } }));
  await requestSync();
}

/** Staff: give the ticket to a staff member, or to nobody. */
export async function assign(ticketId: string, assigneeId: string | null): Promise<void> {
  await unwrap(api.tickets[':id'].assignee.$put({ param: { id: ticketId }, header: { 'idempotency-key': crypto.randomUUID() }, json: { assigneeId } }));
  await requestSync();
}

/** Staff: the ticket's delivered order gets a warranty report (decision 171). */
export async function makeWarrantyReport(ticketId: string): Promise<void> {
  await unwrap(api.tickets[':id']['warranty-report'].$post({ param: { id: ticketId }, header: { 'idempotency-key': crypto.randomUUID() } }));
  await requestSync();
}

/** Admins: the ticket goes from every device with the next sync. */
export async function removeTicket(ticketId: string): Promise<void> {
  const answer = await api.tickets[':id'].$delete({ param: { id: ticketId } });
  if (!answer.ok) {
    const body = (await answer.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(body?.error?.message ?? 'Could not delete the ticket');
  }
  await requestSync();
}
