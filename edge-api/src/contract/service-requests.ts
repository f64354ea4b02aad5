import * as z from 'zod';
import { expectedVersion, IMAGE_ADDRESS_MAX, requiredText, text, textList, uuid } from './fields.ts';
import { deliveryKindSchema } from './deliveries.ts';
import { isImageAddress, LOW_STOCK_THRESHOLD_MAX } from './services.ts';

/** A low-stock threshold: a whole number of accounts, 0 (never warn) to LOW_STOCK_THRESHOLD_MAX. */
export const lowStockThreshold = z
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .min(0, 'must be 0 or more')
  .max(LOW_STOCK_THRESHOLD_MAX, `must be at most ${LOW_STOCK_THRESHOLD_MAX}`);

/** The Wise category, however older data spells it ('wise', 'WISE', 'Wise'): the one Wise stock serves. */
export const categoryIsWise = (category: string) => category.trim().toLowerCase() === 'wise';

/** The longest hint a service gives for the customer's note. */
export const DETAILS_HINT_MAX = 300;

/** '' (no picture) or an address a browser can show; see isImageAddress. */
export const serviceImage = text(IMAGE_ADDRESS_MAX).refine((value) => value === '' || isImageAddress(value), {
  message: 'must be a valid URL (https://...) or an uploaded picture; inline data: images are not kept',
});

/** The longest warranty a service can give, in days. */
export const WARRANTY_DAYS_MAX = 3650;

/** POST and PUT /api/services. */
export const serviceBody = z.object({
  id: uuid.optional(),
  title: requiredText(200),
  description: requiredText(5000),
  category: requiredText(60),
  features: textList(50, 300).default([]),
  popular: z.boolean().default(false),
  image: serviceImage.default(''),
  price: requiredText(60),
  deliveryTime: requiredText(60),
  paymentMethods: textList(20, 40).default([]),
  autoDeliver: z.boolean().optional(),
  lowStockThreshold: lowStockThreshold.nullable().optional(),
  needsDetails: z.boolean().default(false),
  detailsHint: text(DETAILS_HINT_MAX).default(''),
  warrantyDays: z
    .number({ error: 'must be a whole number of days' })
    .int('must be a whole number of days')
    .min(0, 'must be 0 (no warranty) or more')
    .max(WARRANTY_DAYS_MAX, `must be at most ${WARRANTY_DAYS_MAX} days`)
    .optional(),
  /** Left out: kept as it is ('account' for a new service). */
  deliveryKind: deliveryKindSchema.optional(),
  version: expectedVersion,
});

/** Why a service body cannot deliver automatically, or null (checked by the route and the form). */
export const AUTO_DELIVER_WISE_ONLY =
  'Automatic delivery takes accounts from Wise stock: only a service of the Wise category can deliver automatically, or one that keeps stock of its own';
export const AUTO_DELIVER_ACCOUNTS_ONLY =
  'Automatic delivery takes items from stock: a service that delivers a file is delivered by staff, and one that delivers a server login or lines needs stock of its own first';
/**
 * `keepsStock`: the service has stock of its own (decision 072), which it then draws on whatever its
 * category, for an account, a server login or lines. Without it only a Wise-category account service may
 * (the Wise pool, decision 061). A file never.
 */
export const autoDeliverProblem = (body: { autoDeliver?: boolean; category: string; deliveryKind?: string }, keepsStock = false) =>
  !body.autoDeliver
    ? null
    : body.deliveryKind === 'file' || (body.deliveryKind !== undefined && body.deliveryKind !== 'account' && !keepsStock)
      ? AUTO_DELIVER_ACCOUNTS_ONLY
      : !keepsStock && !categoryIsWise(body.category)
        ? AUTO_DELIVER_WISE_ONLY
        : null;
