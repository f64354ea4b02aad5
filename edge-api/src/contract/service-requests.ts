import { z } from 'zod';
import { expectedVersion, IMAGE_ADDRESS_MAX, requiredText, text, textList, uuid } from './fields.ts';
import { isImageAddress } from './services.ts';

/** The longest hint a service gives for the customer's note. */
export const DETAILS_HINT_MAX = 300;

/** '' (no picture) or an address a browser can show; see isImageAddress. */
export const serviceImage = text(IMAGE_ADDRESS_MAX).refine((value) => value === '' || isImageAddress(value), {
  message: 'must be a valid URL (https://...) or an uploaded picture; inline data: images are not kept',
});

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
  needsDetails: z.boolean().default(false),
  detailsHint: text(DETAILS_HINT_MAX).default(''),
  version: expectedVersion,
});
