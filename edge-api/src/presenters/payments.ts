import { missingFields, railFields, type PaymentEventView, type PaymentRail, type PaymentRailView } from '../contract/payments.ts';
import type { PaymentEventRow } from '../db/payment-schema.ts';

export const presentPaymentEvent = (row: PaymentEventRow): PaymentEventView => ({
  id: row.id,
  rail: row.rail,
  kind: row.kind,
  reference: row.reference,
  amount: row.amount,
  currency: row.currency,
  outcome: row.outcome,
  seen: row.seen_count,
  receivedAt: new Date(row.received_at).toISOString(),
  lastSeenAt: new Date(row.last_seen_at).toISOString(),
});

/** A rail for the admin: settings in clear, secrets only named. */
export function presentRail(
  rail: PaymentRail,
  loaded: { enabled: boolean; settings: Record<string, string>; secrets: Record<string, string> } | undefined,
): PaymentRailView {
  const settings = Object.fromEntries(railFields[rail].settings.map((name) => [name, loaded?.settings[name] ?? '']));
  const secretsSet = railFields[rail].secrets.filter((name) => Boolean(loaded?.secrets[name]));
  return { rail, enabled: loaded?.enabled ?? false, settings, secretsSet, missing: missingFields(rail, loaded?.settings ?? {}, secretsSet) };
}
