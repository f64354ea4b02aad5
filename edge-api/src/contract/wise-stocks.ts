export type StockStatus = 'available' | 'sold' | 'active' | 'suspended' | 'disabled' | 'used';
export const stockStatuses: readonly StockStatus[] = ['available', 'sold', 'active', 'suspended', 'disabled', 'used'];
export const isStockStatus = (value: unknown): value is StockStatus => (stockStatuses as readonly unknown[]).includes(value);

export type StockImageField = 'authImage' | 'docImg1' | 'docImg2';
export const stockImageFields: readonly StockImageField[] = ['authImage', 'docImg1', 'docImg2'];

export interface WiseStock {
  id: string;
  wiseName: string;
  wiseEmail: string;
  /** '' with wisePasswordUnreadable when the stored password cannot be read with this server's CREDENTIALS_KEY. */
  wisePassword: string;
  wisePasswordUnreadable?: true;
  /** For a moderator the password is '' and masked: POST /api/wise-stocks/:id/reveal shows it, and is audited. */
  wisePasswordMasked?: true;
  authImage: string;
  docImg1: string;
  docImg2: string;
  userName: string;
  userEmail: string;
  serviceName: string;
  status: StockStatus;
  soldTo: string | null;
  orderId: string | null;
  notes: string;
  /** The import batch it came in with (GET /api/stock-batches); absent when added one at a time. */
  batchId?: string;
  /** Replaced as faulty on an order (decision 063): never available again. */
  faultyAt?: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** Why a status change cannot be sent: the spec's message, the field at fault and what is wrong with it. */
export interface StatusChangeProblem {
  message: string;
  field: 'status' | 'soldTo';
  fieldMessage: string;
}

/**
 * Spec section 5: a status change needs a status, and a buyer when the stock is sold. The form says so
 * before anything is sent; the API refuses the same change with the same words.
 */
export function statusChangeProblem(change: { status?: string | null; soldTo?: string | null }): StatusChangeProblem | null {
  if (!isStockStatus(change.status)) return { message: 'Please select a status', field: 'status', fieldMessage: 'is required' };
  if (change.status === 'sold' && !change.soldTo) {
    return { message: 'Please select a user when marking as sold', field: 'soldTo', fieldMessage: 'is required when the status is sold' };
  }
  return null;
}

/** POST /api/wise-stocks/:id/reveal: one stock's password, for the staff member who asked (audited). */
export interface WiseStockReveal {
  wisePassword: string;
}

/** Where credentials were found before: in stock (any live stock row) or delivered to a paid order. */
export type DuplicatePlace = 'stock' | 'order';

/**
 * GET /api/wise-stocks/check, and the details of a 409 duplicate_credentials: the order credentials
 * check's three answers (exact pair, email, password), each with where it was found.
 */
export interface StockDuplicateCheck {
  exactMatch: boolean;
  emailExists: boolean;
  passwordExists: boolean;
  exactIn: DuplicatePlace[];
  emailIn: DuplicatePlace[];
  passwordIn: DuplicatePlace[];
}

export const hasDuplicate = (check: StockDuplicateCheck): boolean => check.emailExists || check.passwordExists;

/** What POST /api/wise-stocks/{id}/password answers: the stock, and the order that now shows the new password. */
export interface StockPasswordChange {
  stock: WiseStock;
  /** The live order this stock was delivered to, now carrying the new password; null when none. */
  orderId: string | null;
}
