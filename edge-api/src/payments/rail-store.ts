import { missingFields, USDT_TRC20_CONTRACT, type PaymentRail } from '../contract/payments.ts';
import type { Secrets } from '../lib/secrets.ts';
import type { Db } from '../db/handle.ts';

/** Where each rail's API is: the public hosts unless the environment names others (tests, sandboxes). */
export interface PaymentsConfig {
  tronApiUrl: string;
  binancePayApiUrl: string;
  bkashApiUrl: string;
  /** The address customers open the shop at: receipts link there, and the rails call back there. */
  siteUrl?: string;
}

export const defaultPaymentsConfig: PaymentsConfig = {
  tronApiUrl: 'https://api.trongrid.io',
  binancePayApiUrl: 'https://bpay.binanceapi.com',
  bkashApiUrl: 'https://tokenized.pay.bka.sh/v1.2.0-beta',
};

/** A rail as the server uses it: settings in clear, secrets opened. Never answered to anyone. */
export interface LoadedRail {
  rail: PaymentRail;
  enabled: boolean;
  settings: Record<string, string>;
  secrets: Record<string, string>;
}

export async function loadRail(db: Db, secrets: Secrets, rail: PaymentRail): Promise<LoadedRail | undefined> {
  const row = await db.selectFrom('payment_rails').selectAll().where('rail', '=', rail).executeTakeFirst();
  if (!row) return undefined;
  const opened = row.secrets_enc ? await secrets.open(row.secrets_enc, { entity: 'payment_rail', id: rail }) : null;
  const settings = { ...row.settings };
  if (rail === 'usdt_trc20' && !settings.contract) settings.contract = USDT_TRC20_CONTRACT;
  return { rail, enabled: row.enabled, settings, secrets: opened ? (JSON.parse(opened) as Record<string, string>) : {} };
}

/** The rail if it is switched on and complete; undefined otherwise. */
export async function enabledRail(db: Db, secrets: Secrets, rail: PaymentRail): Promise<LoadedRail | undefined> {
  const loaded = await loadRail(db, secrets, rail);
  if (!loaded?.enabled) return undefined;
  return missingFields(rail, loaded.settings, Object.keys(loaded.secrets)).length === 0 ? loaded : undefined;
}

export interface ShopPaymentSettings {
  expiryMinutes: number;
  bdtPerUsd: string | null;
}

export async function loadPaymentSettings(db: Db): Promise<ShopPaymentSettings> {
  const row = await db.selectFrom('payment_settings').selectAll().where('id', '=', 'payments').executeTakeFirst();
  return { expiryMinutes: row?.expiry_minutes ?? 30, bdtPerUsd: row?.bdt_per_usd ?? null };
}

/** The rails switched on, by name: what an order may be paid with automatically. */
export async function enabledRailNames(db: Db): Promise<PaymentRail[]> {
  const rows = await db.selectFrom('payment_rails').select('rail').where('enabled', '=', true).execute();
  return rows.map((row) => row.rail);
}
