import { z } from 'zod';

/** Shared pieces of request validation. */
export const uuid = z.uuid({ message: 'must be a UUID' });
export const idParam = z.object({ id: uuid });
export const requiredText = (max: number) => z.string().trim().min(1, 'is required').max(max, `must be at most ${max} characters`);
/** Lists typed in forms: blank entries are dropped, as the spec asks. */
export const textList = (maxItems: number, maxLength: number) =>
  z
    .array(z.string().max(maxLength, `entries must be at most ${maxLength} characters`))
    .max(maxItems, `must have at most ${maxItems} entries`)
    .transform((items) => items.map((item) => item.trim()).filter((item) => item.length > 0));
/** The row version the client last saw; a stale one answers 409. */
export const expectedVersion = z.number().int().nonnegative().optional();
