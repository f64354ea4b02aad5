import * as z from 'zod';
import { blankAsMissing, queryText } from './fields.ts';

/** Most rows one page of a list (users, stocks, import batches, coupons, API keys, tickets) holds. */
export const LIST_PAGE_MAX = 500;
/** The rows a page holds without `limit`: no list is answered whole (decision 234). */
export const LIST_PAGE_DEFAULT = 100;
/** The header naming the next page's cursor while there is one. */
export const NEXT_CURSOR_HEADER = 'X-Next-Cursor';

/**
 * A page of a list newest first: the newest `limit` rows (100 without it, at most 500) after `cursor`, and
 * the cursor of the next page in the `X-Next-Cursor` header while there is one.
 */
export const listPageQuery = z.object({
  limit: z.preprocess(
    blankAsMissing,
    z
      .string({ error: 'must be given once' })
      .regex(/^[1-9][0-9]{0,3}$/, 'must be a whole number of 1 or more')
      .transform(Number)
      .refine((n) => n <= LIST_PAGE_MAX, `must be at most ${LIST_PAGE_MAX}`)
      .optional(),
  ),
  cursor: z.preprocess(
    blankAsMissing,
    queryText(200)
      .regex(/^[A-Za-z0-9_-]+$/, 'must be a cursor this API answered')
      .optional(),
  ),
});

export type ListPageQuery = z.infer<typeof listPageQuery>;
