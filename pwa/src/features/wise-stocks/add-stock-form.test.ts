import { describe, expect, it } from 'vitest';
import { WISE_PASSWORD_MAX } from '../../../../edge-api/src/contract/fields.ts';
import { draftProblems, emptyDraft, type StockDraft } from './add-stock-form.ts';

const image = { path: 'stock-images/auth.png', url: '/files/stock-images/auth.png' };
const filled: StockDraft = {
  ...emptyDraft(),
  wiseName: 'Arif Hossain',
  wiseEmail: 'arif@wise.test',
  wisePassword: ' Wise#Arif 2026 ',
  userName: 'Demo Admin',
  authImage: image,
};

describe('Add Wise Stock form rules (the API contract)', () => {
  it('lists every empty required field in form order, and no document', () => {
    expect(draftProblems(emptyDraft())).toEqual({ missing: ['wiseName', 'wiseEmail', 'wisePassword', 'authImage', 'userName'], invalid: null });
    expect(draftProblems({ ...filled, wiseName: '   ', wisePassword: '   ' }).missing).toEqual(['wiseName', 'wisePassword']);
    expect(draftProblems(filled)).toEqual({ missing: [], invalid: null });
  });

  it('finds what the API would refuse before anything is sent, worded as the API words it', () => {
    expect(draftProblems({ ...filled, wiseEmail: 'arif at wise' }).invalid).toBe('wiseEmail: must be an email address');
    expect(draftProblems({ ...filled, wisePassword: 'x'.repeat(WISE_PASSWORD_MAX + 1) }).invalid).toBe(
      `wisePassword: must be at most ${WISE_PASSWORD_MAX} characters`,
    );
    expect(draftProblems({ ...filled, wisePassword: 'x'.repeat(WISE_PASSWORD_MAX) }).invalid).toBeNull();
  });
});
