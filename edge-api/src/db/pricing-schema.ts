import type { ColumnType } from 'kysely';

/** The tables of prices for regulars (decision 178), apart from schema.ts as the other features' tables are. */

/** Buy `min_quantity` or more at `unit_cents` each (decision 178). */
export interface ServicePriceTiersTable {
  service_id: string;
  min_quantity: number;
  unit_cents: ColumnType<number, number, number>;
}

/** An admin's price for one customer: a unit price for a service, or a percentage off everything (decision 178). */
export interface CustomerPricesTable {
  id: string;
  user_id: string;
  service_id: string | null;
  unit_cents: ColumnType<number | null, number | null | undefined, number | null>;
  percent_off: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}
