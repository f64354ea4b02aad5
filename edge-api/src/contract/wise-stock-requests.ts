import { z } from 'zod';
import { expectedVersion, IMAGE_ADDRESS_MAX, requiredEmail, requiredText, text, uuid, wisePassword } from './fields.ts';
import { isHttpUrl, parseBlobRef } from './uploads.ts';
import { stockStatuses } from './wise-stocks.ts';

/** An image uploaded through POST /api/uploads (kind stock), or an external http(s) URL; '' is no image. */
const stockImage = text(IMAGE_ADDRESS_MAX).refine((value) => value === '' || parseBlobRef(value)?.bucket === 'stock-images' || isHttpUrl(value), {
  message: 'must be an uploaded stock image (stock-images/...) or an http(s) URL',
});

/** POST /api/wise-stocks */
export const newStockBody = z.object({
  id: uuid.optional(),
  wiseName: requiredText(200),
  wiseEmail: requiredEmail,
  wisePassword,
  authImage: stockImage.refine((value) => value !== '', { message: 'is required' }),
  docImg1: stockImage.nullish().transform((value) => value ?? ''),
  docImg2: stockImage.nullish().transform((value) => value ?? ''),
  userName: requiredText(200),
  // serviceName and status are not read: a new stock is always a 'WiseStock' and 'available'.
});

/** PUT /api/wise-stocks/{id}: one image, or a status change (with the buyer when sold, and notes). */
export const stockChangeBody = z.object({
  authImage: stockImage.optional(),
  docImg1: stockImage.optional(),
  docImg2: stockImage.optional(),
  status: z.enum([...stockStatuses, ''], { error: `must be one of ${stockStatuses.join(', ')}` }).optional(),
  soldTo: z.union([uuid, z.literal(''), z.null()]).optional(),
  notes: z.string().max(2000, 'must be at most 2000 characters').nullish(),
  // The client's clock is not trusted; updatedAt is set by the server.
  updatedAt: z.unknown().optional(),
  version: expectedVersion,
});
