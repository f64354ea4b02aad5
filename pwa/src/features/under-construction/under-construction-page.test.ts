import { describe, expect, it } from 'vitest';
import { underConstructionTitle } from './under-construction-page.tsx';

describe('Under Construction titles', () => {
  it('names the screen that is not built yet, so each sidebar link has a title of its own', () => {
    expect(underConstructionTitle('/fees')).toBe('Fees: Under Construction');
    expect(underConstructionTitle('/student-attn-reports')).toBe('Student Attn Reports: Under Construction');
    expect(underConstructionTitle('/under-construction')).toBe('Under Construction');
    expect(underConstructionTitle('/')).toBe('Under Construction');
  });
});
