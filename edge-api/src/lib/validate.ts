import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { ZodType } from 'zod';
import { fieldIssues } from '../contract/fields.ts';
import { badRequest } from '../errors.ts';

/** zod validation as middleware; a bad request answers 400 naming each field at fault, and changes nothing. */
export const validate = <Target extends keyof ValidationTargets, Schema extends ZodType>(target: Target, schema: Schema) =>
  zValidator(target, schema, (result) => {
    if (!result.success) {
      const details = fieldIssues(result.error);
      const first = details[0];
      throw badRequest(first ? `${first.path || target}: ${first.message}` : `Invalid ${target}`, details);
    }
  });
