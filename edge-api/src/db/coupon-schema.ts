import type { ColumnType, Generated, Selectable } from 'kysely';
import type { CouponKind } from '../contract/coupons.ts';
import type { NullableTime, Timestamp } from './column-types.ts';

type NullableNumber = ColumnType<number | null, number | null | undefined, number | null>;
/** numeric columns: pg answers them as text, to the last digit. */
type NullableDecimal = ColumnType<string | null, string | null | undefined, string | null>;

/** A coupon an admin made (decision 220). */
export interface CouponsTable {
  id: string;
  code: string;
  kind: CouponKind;
  amount: ColumnType<string, string, string>;
  service_ids: ColumnType<string[], string[] | undefined, string[]>;
  first_order_only: ColumnType<boolean, boolean | undefined, boolean>;
  min_total: NullableDecimal;
  max_uses: NullableNumber;
  max_uses_per_customer: NullableNumber;
  starts_at: NullableTime;
  ends_at: NullableTime;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  uses: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One order that used a coupon. */
export interface CouponUsesTable {
  order_id: string;
  coupon_id: string;
  user_id: string;
  created_at: Timestamp;
}

export type CouponRow = Selectable<CouponsTable>;
