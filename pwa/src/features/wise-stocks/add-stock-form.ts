import type { UploadedImage } from '../../../../edge-api/src/contract/uploads.ts';
import { newStockBody } from '../../../../edge-api/src/contract/wise-stock-requests.ts';
import { checkWith } from '../../lib/form-problems.ts';
import type { UploadProblem } from '../../lib/image-upload.ts';

/** The Add Wise Stock form as typed so far; images are uploaded as soon as they are chosen. */
export interface StockDraft {
  wiseName: string;
  wiseEmail: string;
  wisePassword: string;
  userName: string;
  authImage: UploadedImage | null;
  docImg1: UploadedImage | null;
  docImg2: UploadedImage | null;
}

export type DraftField = keyof StockDraft;

export const emptyDraft = (): StockDraft => ({
  wiseName: '',
  wiseEmail: '',
  wisePassword: '',
  userName: '',
  authImage: null,
  docImg1: null,
  docImg2: null,
});

export const MISSING_FIELDS: UploadProblem = { title: 'Missing Fields!', text: 'Please fill in all required fields' };
export const ADD_FAILED: UploadProblem = { title: 'Error!', text: 'Failed to add Wise stock. Please try again.' };
export const ADDED_MESSAGE = 'Wise stock added successfully';

const requiredOrder: DraftField[] = ['wiseName', 'wiseEmail', 'wisePassword', 'authImage', 'userName'];

/** The stock's own fields as they are sent: the images as the paths the upload answered, the password exactly as typed. */
function stockFields(draft: StockDraft) {
  return {
    wiseName: draft.wiseName.trim(),
    wiseEmail: draft.wiseEmail.trim(),
    wisePassword: draft.wisePassword,
    authImage: draft.authImage?.path ?? '',
    docImg1: draft.docImg1?.path ?? '',
    docImg2: draft.docImg2?.path ?? '',
    userName: draft.userName.trim(),
  };
}

/**
 * What the contract's rules (the API's own) find in the draft: the fields left empty (spec section 5:
 * wiseName, wiseEmail, wisePassword, userName and authImage are required; documents are not), and the
 * first other problem, worded as the API would word it.
 */
export function draftProblems(draft: StockDraft): { missing: DraftField[]; invalid: string | null } {
  const problems = checkWith(newStockBody, stockFields(draft));
  const missing = requiredOrder.filter((field) => problems[field] === 'is required');
  const other = Object.entries(problems).find(([, message]) => message !== 'is required');
  return { missing, invalid: other ? `${other[0]}: ${other[1]}` : null };
}

/** POST /api/wise-stocks, with a client id so a retried request never makes a second stock. */
export function toCreateBody(draft: StockDraft, id: string) {
  return { id, ...stockFields(draft), serviceName: 'WiseStock', status: 'available' as const };
}
