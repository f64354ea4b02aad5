import type { Service } from '../contract/services.ts';
import type { ServiceRow } from '../db/schema.ts';

export const toService = (row: ServiceRow): Service => ({
  id: row.id,
  title: row.title,
  description: row.description,
  category: row.category,
  features: row.features,
  popular: row.popular,
  image: row.image,
  price: row.price,
  deliveryTime: row.delivery_time,
  paymentMethods: row.payment_methods,
  autoDeliver: row.auto_deliver,
  lowStockThreshold: row.low_stock_threshold,
  needsDetails: row.needs_details,
  detailsHint: row.details_hint,
  warrantyDays: row.warranty_days,
  deliveryKind: row.delivery_kind,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
  version: Number(row.version),
});
