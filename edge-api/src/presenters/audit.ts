import type { AuditEntry } from '../contract/audit.ts';
import type { AuditRow } from '../db/schema.ts';

export const toAuditEntry = (row: AuditRow): AuditEntry => ({
  id: row.id,
  actorId: row.actor_id,
  actorEmail: row.actor_email,
  action: row.action,
  entity: row.entity,
  entityId: row.entity_id,
  details: row.details,
  createdAt: new Date(row.created_at).toISOString(),
});
