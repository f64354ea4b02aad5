import type { Kysely, Transaction } from 'kysely';
import type { Database, UserRow } from './schema.ts';

export interface AuditEntry {
  action: string;
  entity: 'order' | 'service' | 'user' | 'wise_stock' | 'settings';
  entityId: string;
  /** What changed. Never a password or any other secret. */
  details?: Record<string, unknown>;
}

export async function recordAudit(
  db: Kysely<Database> | Transaction<Database>,
  actor: Pick<UserRow, 'id' | 'email'> | null,
  entry: AuditEntry,
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: crypto.randomUUID(),
      actor_id: actor?.id ?? null,
      actor_email: actor?.email ?? '',
      action: entry.action,
      entity: entry.entity,
      entity_id: entry.entityId,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}
