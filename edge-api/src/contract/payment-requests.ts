import * as z from 'zod';
import { oneOf, text } from './fields.ts';
import { paymentRails } from './payments.ts';

/** POST /api/orders/{id}/payment: pay this order on a rail the shop switched on. */
export const startPaymentBody = z.object({ rail: oneOf(paymentRails) });

/** A TRON address in its usual base58 form: T and 33 more characters. */
export const tronAddress = z
  .string()
  .trim()
  .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'must be a TRON address (T followed by 33 letters and digits)');

/** A positive decimal as text ("121.5"), or null to clear it. */
const rate = z
  .string()
  .trim()
  .regex(/^\d{1,6}(\.\d{1,4})?$/, 'must be a number such as 121.50')
  .refine((value) => Number(value) > 0, 'must be more than 0')
  .nullable();

/** PUT /api/admin/payments: the shop's payment window and exchange rate. */
export const paymentSettingsBody = z.object({
  expiryMinutes: z.number({ error: 'must be a number of minutes' }).int('must be whole minutes').min(5, 'must be at least 5').max(1440, 'must be at most 1440'),
  bdtPerUsd: rate,
});

const secret = text(500).optional();

/**
 * PUT /api/admin/payments/{rail}: switch a rail on or off, its settings, and any secret to replace (a
 * secret left out or empty keeps the one stored; none is ever answered back).
 */
export const railUpdateBody = z.object({
  enabled: z.boolean({ error: 'must be true or false' }),
  settings: z
    .object({ address: tronAddress.optional().or(z.literal('')), contract: tronAddress.optional().or(z.literal('')) })
    .strict()
    .default({}),
  secrets: z.object({ apiKey: secret, secretKey: secret, appKey: secret, appSecret: secret, username: secret, password: secret }).strict().default({}),
});

export const railParam = z.object({ rail: oneOf(paymentRails) });
