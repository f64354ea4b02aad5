import * as z from 'zod';
import { auditEntities } from './audit.ts';
import { blankAsMissing, oneOf, queryText } from './fields.ts';

/** GET /api/admin/audit */
export const auditQuery = z.object({
  entity: oneOf(auditEntities),
  entityId: z.preprocess(blankAsMissing, queryText(200).optional()),
});
