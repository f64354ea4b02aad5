import type { ZodType } from 'zod';
import type { FieldIssue } from '../../../edge-api/src/contract/errors.ts';
import { fieldIssues } from '../../../edge-api/src/contract/fields.ts';
import { hasCode } from './app-error.ts';

/** A form's problems by field path ('title', 'socialLinks.facebook', 'wallets.0.number'): the first of each. */
export type FieldProblems = Record<string, string>;

function byField(issues: readonly FieldIssue[]): FieldProblems {
  const problems: FieldProblems = {};
  for (const issue of issues) if (!(issue.path in problems)) problems[issue.path] = issue.message;
  return problems;
}

/**
 * Checks a form's values with the contract's request schema, the one the API checks them with: the
 * problems it would answer, found before anything is sent. Empty when the values pass.
 */
export function checkWith(schema: ZodType, value: unknown): FieldProblems {
  const result = schema.safeParse(value);
  return result.success ? {} : byField(fieldIssues(result.error));
}

/** The field problems of a 400 the API answered (its `details`); empty for any other failure. */
export function problemsFromAnswer(error: unknown): FieldProblems {
  if (!hasCode(error, 'bad_request') || !Array.isArray(error.details)) return {};
  const issues = (error.details as unknown[]).filter(
    (detail): detail is FieldIssue => typeof (detail as FieldIssue | null)?.path === 'string' && typeof (detail as FieldIssue).message === 'string',
  );
  return byField(issues);
}
