import type { ServiceFields } from '../contract/services.ts';
import { writeTime } from './versions.ts';
import type { Db } from './handle.ts';

/** The columns a service's fields are stored in (the lists as JSON text). */
export const toServiceColumns = (fields: ServiceFields) => ({
  title: fields.title,
  description: fields.description,
  category: fields.category,
  features: JSON.stringify(fields.features),
  popular: fields.popular,
  image: fields.image,
  price: fields.price,
  delivery_time: fields.deliveryTime,
  payment_methods: JSON.stringify(fields.paymentMethods),
  // Left out of a body: kept as they are (an older client never turns them off).
  ...(fields.autoDeliver !== undefined && { auto_deliver: fields.autoDeliver }),
  ...(fields.lowStockThreshold !== undefined && { low_stock_threshold: fields.lowStockThreshold }),
  needs_details: fields.needsDetails ?? false,
  details_hint: fields.detailsHint ?? '',
  // Left as it is when a caller sends no warranty (an older client): 0 for a new service.
  ...(fields.warrantyDays !== undefined ? { warranty_days: fields.warrantyDays } : {}),
  ...(fields.deliveryKind !== undefined ? { delivery_kind: fields.deliveryKind } : {}),
});

export function listServices(db: Db) {
  return db.selectFrom('services').selectAll().where('deleted_at', 'is', null).orderBy('created_at', 'asc').execute();
}

export function findService(db: Db, id: string) {
  return db.selectFrom('services').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
}

export function insertService(db: Db, id: string, fields: ServiceFields, version: number) {
  return db
    .insertInto('services')
    .values({ id, ...toServiceColumns(fields), version })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateService(db: Db, id: string, fields: ServiceFields, version: number) {
  return db
    .updateTable('services')
    .set({ ...toServiceColumns(fields), version, updated_at: writeTime() })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export function softDeleteService(db: Db, id: string, version: number) {
  return db
    .updateTable('services')
    .set({ deleted_at: writeTime(), updated_at: writeTime(), version })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
}
