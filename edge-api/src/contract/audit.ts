export const auditEntities = [
  'order',
  'service',
  'user',
  'wise_stock',
  'stock_batch',
  'service_stock',
  'settings',
  'coupon',
  'ticket',
  'api_key',
  'webhook_endpoint',
] as const;
export type AuditEntity = (typeof auditEntities)[number];

export interface AuditEntry {
  id: string;
  actorId: string | null;
  actorEmail: string;
  action: string;
  entity: string;
  entityId: string;
  details: Record<string, unknown>;
  createdAt: string;
}
