import { describe, expect, it } from 'vitest';
import type { WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { matchingStocks } from './stock-search.ts';

const stock = (wiseName: string, wiseEmail: string): WiseStock => ({
  id: wiseEmail,
  wiseName,
  wiseEmail,
  wisePassword: 'x',
  authImage: '',
  docImg1: '',
  docImg2: '',
  userName: 'Admin',
  userEmail: 'admin@demo.test',
  serviceName: 'WiseStock',
  status: 'available',
  soldTo: null,
  orderId: null,
  notes: '',
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-01T00:00:00Z',
  version: 1,
});

describe('picking an account from stock', () => {
  const stocks = [stock('Arif Hossain', 'arif.wise@demo-mail.test'), stock('Nadia Islam', 'nadia@other.test')];

  it('finds accounts by name or email, without regard to case', () => {
    expect(matchingStocks(stocks, 'NADIA').map((s) => s.wiseName)).toEqual(['Nadia Islam']);
    expect(matchingStocks(stocks, 'demo-mail').map((s) => s.wiseName)).toEqual(['Arif Hossain']);
    expect(matchingStocks(stocks, '  ')).toHaveLength(2);
    expect(matchingStocks(stocks, 'nobody')).toEqual([]);
  });
});
