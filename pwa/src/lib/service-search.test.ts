import { describe, expect, it } from 'vitest';
import { ALL_CATEGORIES, filterServices } from './service-search.ts';

describe('service search and category filter', () => {
  const services = [
    { title: 'UK Wise Account', description: 'Verified', category: 'wise' },
    { title: 'Windows VPS', description: 'Fast server with a WISE transfer option', category: 'vps' },
    { title: 'Bank Statement', description: 'Editable PSD', category: 'documents' },
  ];

  it('searches title or description ignoring case, within the chosen category', () => {
    expect(filterServices(services, 'wise', ALL_CATEGORIES).map((s) => s.title)).toEqual(['UK Wise Account', 'Windows VPS']);
    expect(filterServices(services, 'wise', 'vps').map((s) => s.title)).toEqual(['Windows VPS']);
    expect(filterServices(services, '', 'documents').map((s) => s.title)).toEqual(['Bank Statement']);
  });

  it('ignores blanks around the search and shows everything for an empty one', () => {
    expect(filterServices(services, '  statement ', ALL_CATEGORIES).map((s) => s.title)).toEqual(['Bank Statement']);
    expect(filterServices(services, '   ', ALL_CATEGORIES)).toHaveLength(3);
  });
});
