import * as z from 'zod';
import {
  blankAsMissing,
  EMAIL_MAX,
  expectedVersion,
  IMAGE_ADDRESS_MAX,
  queryText,
  requiredEmail,
  requiredText,
  text,
  uuid,
  WISE_PASSWORD_MAX,
  wisePassword,
} from './fields.ts';
import { isHttpUrl, parseBlobRef } from './uploads.ts';
import { PASSWORD_MIN_CHARS } from './users.ts';
import { stockStatuses, type StockStatus } from './wise-stocks.ts';

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
  /** Add it although its email or password is already in stock or delivered (answered 409 duplicate_credentials without). */
  overrideDuplicates: z.boolean({ error: 'must be true or false' }).optional(),
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

/** GET /api/wise-stocks/check: whether credentials about to be stocked are in stock or delivered already. */
export const stockCheckQuery = z
  .object({
    email: z.preprocess(blankAsMissing, z.string({ error: 'must be given once' }).trim().max(EMAIL_MAX, `must be at most ${EMAIL_MAX} characters`).optional()),
    password: z.preprocess(blankAsMissing, queryText(WISE_PASSWORD_MAX).optional()),
  })
  .refine((query) => query.email !== undefined || query.password !== undefined, { path: ['email'], message: 'send an email, a password or both' });

/** GET /api/wise-stocks/export.csv: every live stock, or those of one status; passwords only when asked. */
export const stockExportQuery = z.object({
  passwords: z.preprocess(blankAsMissing, z.enum(['true', 'false'], { error: 'must be true or false' }).optional()).transform((value) => value === 'true'),
  status: z.preprocess(
    blankAsMissing,
    z.enum(stockStatuses as [StockStatus, ...StockStatus[]], { error: `must be one of ${stockStatuses.join(', ')}` }).optional(),
  ),
});

/**
 * A stock's new password, which a sold stock's customer sees at once (decision 221): the rules of an
 * account password (registration's shortest length, PASSWORD_MIN_CHARS) on top of the stock rules, so a
 * slip such as `short` never reaches a buyer.
 */
export const newStockPassword = wisePassword.refine((value) => [...value].length >= PASSWORD_MIN_CHARS, {
  message: `must be at least ${PASSWORD_MIN_CHARS} characters`,
});

/**
 * POST /api/wise-stocks/{id}/password: a new password for a stock (decision 064). When the stock was sold,
 * the order holding it shows the new password at once, the old one kept in its history.
 */
export const stockPasswordBody = z.object({
  wisePassword: newStockPassword,
  /** Use it although the password is already in stock or delivered (answered 409 duplicate_credentials without). */
  overrideDuplicates: z.boolean({ error: 'must be true or false' }).optional(),
  version: expectedVersion,
});
