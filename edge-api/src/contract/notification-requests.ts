import * as z from 'zod';
import { uuid } from './fields.ts';

/** POST /api/notifications/read: these notifications, or every one, become read for the caller. */
export const markNotificationsReadBody = z.union([
  z.object({ ids: z.array(uuid).min(1, 'must name at least one notification').max(500, 'must have at most 500 entries') }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
