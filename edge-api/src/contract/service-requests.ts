import { z } from 'zod';
import { expectedVersion, IMAGE_ADDRESS_MAX, requiredText, text, textList, uuid } from './fields.ts';
import { isImageAddress } from './services.ts';

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
  warrantyDays: z
    .number({ error: 'must be a whole number of days' })
    .int('must be a whole number of days')
    .min(0, 'must be 0 (no warranty) or more')
    .max(WARRANTY_DAYS_MAX, `must be at most ${WARRANTY_DAYS_MAX} days`)
    .optional(),
  version: expectedVersion,
});
