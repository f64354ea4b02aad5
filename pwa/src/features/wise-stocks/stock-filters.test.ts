import { describe, expect, it } from 'vitest';
import type { User } from '../../../../edge-api/src/contract/users.ts';
import type { StockStatus, WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { countStocks, filterStocks, soldToName } from './stock-filters.ts';

let serial = 0;
function stock(fields: Omit<Partial<WiseStock>, 'status'> & { status: StockStatus | string }): WiseStock {
  serial += 1;
  return {
    id: `00000000-0000-4000-8000-${String(serial).padStart(12, '0')}`,
    wiseName: `Holder ${serial}`,
    wiseEmail: `holder${serial}@wise.test`,
    wisePassword: `Secret#${serial}`,
    authImage: '',
    docImg1: '',
    docImg2: '',
    userName: 'Demo Admin',
    userEmail: 'admin@demo.test',
    serviceName: 'WiseStock',
    soldTo: null,
    orderId: null,
    notes: '',
    createdAt: new Date(Date.UTC(2026, 0, serial)).toISOString(),
    updatedAt: new Date(Date.UTC(2026, 0, serial)).toISOString(),
    version: serial,
    ...fields,
  } as WiseStock;
}

const buyer: User = {
  uid: '11111111-1111-4111-8111-111111111111',
  email: 'rahim@demo.test',
  displayName: 'Rahim Uddin',
  mobile: '',
  userRole: 'user',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
};
const users = new Map([[buyer.uid, buyer]]);

const arif = stock({ wiseName: 'Arif Hossain', wiseEmail: 'arif.wise@mail.test', status: 'available' });
const nadia = stock({ wiseName: 'Nadia Islam', wiseEmail: 'nadia@mail.test', status: 'sold', soldTo: buyer.uid });
const mim = stock({ wiseName: 'Mim Akter', status: 'sold', soldTo: '22222222-2222-4222-8222-222222222222' });
const shakib = stock({ wiseName: 'Shakib Rahman', status: 'suspended' });
const tanvir = stock({ wiseName: 'Tanvir Ahmed', status: 'available' });
const odd = stock({ wiseName: 'Legacy Row', status: 'archived' });
const all = [arif, nadia, mim, shakib, tanvir, odd];

const allStatuses = { search: '', status: 'all' as const };

describe('filterStocks', () => {
  it('matches the account name, email, or buyer case-insensitively', () => {
    expect(filterStocks(all, { ...allStatuses, search: 'ARIF' }, users)).toEqual([arif]);
    expect(filterStocks(all, { ...allStatuses, search: 'nadia@mail' }, users)).toEqual([nadia]);
    expect(filterStocks(all, { ...allStatuses, search: 'rahim' }, users)).toEqual([nadia]);
    expect(filterStocks(all, { ...allStatuses, search: 'unknown user' }, users)).toEqual([mim]);
    expect(filterStocks(all, { ...allStatuses, search: '  ' }, users)).toEqual(all);
  });

  it('keeps only the chosen status, together with the search', () => {
    expect(filterStocks(all, { search: '', status: 'available' }, users)).toEqual([arif, tanvir]);
    expect(filterStocks(all, { search: 'tanvir', status: 'available' }, users)).toEqual([tanvir]);
    expect(filterStocks(all, { search: 'tanvir', status: 'sold' }, users)).toEqual([]);
  });
});

describe('countStocks', () => {
  it('counts the list it is given by status, unknown statuses only in the total', () => {
    expect(countStocks(all)).toEqual({ total: 6, available: 2, sold: 2, active: 0, suspended: 1, disabled: 0, used: 0 });
    expect(countStocks([])).toEqual({ total: 0, available: 0, sold: 0, active: 0, suspended: 0, disabled: 0, used: 0 });
  });
});

describe('soldToName', () => {
  it("names the buyer only when sold, and 'Unknown User' when the buyer is not known", () => {
    expect(soldToName(nadia, users)).toBe('Rahim Uddin');
    expect(soldToName(mim, users)).toBe('Unknown User');
    expect(soldToName(arif, users)).toBeNull();
    expect(soldToName({ status: 'available', soldTo: buyer.uid }, users)).toBeNull();
  });
});
