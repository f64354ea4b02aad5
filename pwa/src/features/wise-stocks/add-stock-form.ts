import type { UploadedImage, UploadProblem } from '../../lib/image-upload.ts';

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

/** Spec section 5: wiseName, wiseEmail, wisePassword, userName and authImage are required; documents are not. */
export function missingFields(draft: StockDraft): DraftField[] {
  const missing: DraftField[] = [];
  if (!draft.wiseName.trim()) missing.push('wiseName');
  if (!draft.wiseEmail.trim()) missing.push('wiseEmail');
  if (!draft.wisePassword.trim()) missing.push('wisePassword');
  if (!draft.authImage) missing.push('authImage');
  if (!draft.userName.trim()) missing.push('userName');
  return missing;
}

/**
 * POST /api/wise-stocks: the images as the paths the upload answered, the password exactly as typed, and a
 * client id so a retried request never makes a second stock.
 */
export function toCreateBody(draft: StockDraft, id: string) {
  return {
    id,
    wiseName: draft.wiseName.trim(),
    wiseEmail: draft.wiseEmail.trim(),
    wisePassword: draft.wisePassword,
    authImage: draft.authImage?.path ?? '',
    docImg1: draft.docImg1?.path ?? '',
    docImg2: draft.docImg2?.path ?? '',
    userName: draft.userName.trim(),
    serviceName: 'WiseStock',
    status: 'available' as const,
  };
}
