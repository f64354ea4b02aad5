import type { DuplicatePlace, StockDuplicateCheck } from '../../../../edge-api/src/contract/wise-stocks.ts';

/**
 * What the Add Wise Stock form shows for a duplicate check's answer: the order credentials modal's
 * warnings (spec section 5), saying where the credentials were found, and an explicit override.
 */
export interface StockDuplicateWarning {
  kind: 'none' | 'exact' | 'both' | 'email' | 'password';
  title: string | null;
  lines: string[];
  emailInline: string | null;
  passwordInline: string | null;
  submitLabel: 'Add Wise Stock' | 'Override & Add';
  /** Exact duplicates are added only after a confirmation dialog. */
  needsConfirmation: boolean;
}

const none: StockDuplicateWarning = {
  kind: 'none',
  title: null,
  lines: [],
  emailInline: null,
  passwordInline: null,
  submitLabel: 'Add Wise Stock',
  needsConfirmation: false,
};

/** 'in stock', 'delivered to an order', or both. */
export function placesText(places: DuplicatePlace[]): string {
  const inStock = places.includes('stock');
  const delivered = places.includes('order');
  if (inStock && delivered) return 'in stock and delivered to an order';
  return delivered ? 'delivered to an order' : 'in stock';
}

export function selectStockDuplicateWarning(check: StockDuplicateCheck | null | undefined): StockDuplicateWarning {
  if (!check || (!check.emailExists && !check.passwordExists)) return none;
  const emailInline = check.emailExists ? `This email is already ${placesText(check.emailIn)}` : null;
  const passwordInline = check.passwordExists ? `This password is already ${placesText(check.passwordIn)}` : null;
  const flagged = { ...none, emailInline, passwordInline, submitLabel: 'Override & Add' as const };
  if (check.exactMatch) {
    const where = check.exactIn.includes('stock') ? 'an existing stock' : 'a delivered order';
    return {
      ...flagged,
      kind: 'exact',
      title: `⚠️ These exact credentials are already ${placesText(check.exactIn)}!`,
      lines: [`Email and password combination is identical to ${where}.`, 'This will create duplicate credentials!'],
      needsConfirmation: true,
    };
  }
  if (check.emailExists && check.passwordExists) {
    return { ...flagged, kind: 'both', title: '⚠️ Both email and password are already in use, in different places' };
  }
  if (check.emailExists) {
    return { ...flagged, kind: 'email', title: `⚠️ This email is already ${placesText(check.emailIn)}`, lines: ['Consider using a different email address.'] };
  }
  return {
    ...flagged,
    kind: 'password',
    title: `⚠️ This password is already ${placesText(check.passwordIn)}`,
    lines: ['Consider using a different password.'],
  };
}
