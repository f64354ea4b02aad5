import type { OrderRow } from '../db/schema.ts';
import { csvField } from '../lib/csv.ts';

const csvColumns = ['id', 'orderDate', 'title', 'category', 'price', 'userName', 'userEmail', 'paymentStatus', 'orderStatus', 'wiseEmail'];

/** The export's first line. */
export const csvHeader = csvColumns.join(',') + '\r\n';

/** One order as a line of the export: what staff see of it, never a password. */
export const csvRow = (row: OrderRow) =>
  [
    row.id,
    new Date(row.order_date).toISOString(),
    row.title,
    row.category,
    row.price,
    row.user_name,
    row.user_email,
    row.payment_status,
    row.order_status,
    row.wise_email ?? '',
  ]
    .map(csvField)
    .join(',') + '\r\n';
