import * as z from 'zod';

/** GET /api/sync */
export const syncQuery = z.object({
  scope: z.enum(['public', 'private'], { error: 'must be public or private' }).default('public'),
  cursor: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').nonnegative('must not be negative').default(0),
});
