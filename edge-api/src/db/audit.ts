import type { Kysely, Transaction } from 'kysely';
import type { AuditEntity } from '../contract/audit.ts';
import type { Database, UserRow } from './schema.ts';

export interface AuditEntry {
  action: string;
  entity: AuditEntity;
  entityId: string;
  /** What changed. Never a password or any other secret. */
  details?: Record<string, unknown>;
}

export async function recordAudit(db: Kysely<Database> | Transaction<Database>, actor: Pick<UserRow, 'id' | 'email'> | null, entry: AuditEntry): Promise<void> {
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

/** The newest 200 entries about one entity (or one kind of entity), newest first. */
export function auditTrail(db: Kysely<Database> | Transaction<Database>, entity: AuditEntity, entityId: string | undefined) {
  return db
    .selectFrom('audit_log')
    .selectAll()
    .where('entity', '=', entity)
    .$if(entityId !== undefined, (qb) => qb.where('entity_id', '=', entityId!))
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(200)
    .execute();
}
