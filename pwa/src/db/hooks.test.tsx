import type { Session } from '@supabase/auth-js';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthContext, type AuthState } from '../lib/auth.tsx';
import { useCurrentUser, usePendingIds, useSettings } from './hooks.ts';
import { getPublicDb, getUserDb } from './local-db.ts';

afterEach(cleanup);

const signedIn = (id: string): AuthState => ({ status: 'signedIn', user: { id, email: `${id}@example.test` }, session: {} as Session });
const wrapper = (state: AuthState) =>
  function Wrapper({ children }: { children: ReactNode }) {
    return <AuthContext value={state}>{children}</AuthContext>;
  };

describe('useCurrentUser', () => {
  it('is undefined until the first sync, then the record, and null when signed out', async () => {
    const uid = crypto.randomUUID();
    const db = getUserDb(uid);
    const { result } = renderHook(() => useCurrentUser(), { wrapper: wrapper(signedIn(uid)) });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(result.current).toBeUndefined();

    await db.meta.put({ key: 'cursor', value: 7 });
    await waitFor(() => expect(result.current).toBeNull());
    const now = new Date().toISOString();
    await db.users.put({ uid, email: 'me@example.test', displayName: 'Me', mobile: '', userRole: 'user', createdAt: now, updatedAt: now, version: 7 });
    await waitFor(() => expect(result.current?.displayName).toBe('Me'));

    const signedOut = renderHook(() => useCurrentUser(), { wrapper: wrapper({ status: 'signedOut' }) });
    expect(signedOut.result.current).toBeNull();
  });
});

describe('useSettings', () => {
  it('answers the defaults until settings are synced, then the synced ones', async () => {
    await getPublicDb().settings.clear();
    const { result } = renderHook(() => useSettings());
    expect(result.current.brandName).toBeTruthy();
    const defaults = result.current;
    await getPublicDb().settings.put({ ...defaults, brandName: 'Synced Shop', id: 'site' });
    await waitFor(() => expect(result.current.brandName).toBe('Synced Shop'));
    expect(result.current.socialLinks).toEqual(defaults.socialLinks);
  });

  it('is read once for every component: each sees a change, and one mounted later starts from the stored settings', async () => {
    await getPublicDb().settings.clear();
    const first = renderHook(() => useSettings());
    const second = renderHook(() => useSettings());
    const defaults = first.result.current;
    await getPublicDb().settings.put({ ...defaults, brandName: 'Shared Shop', id: 'site' });
    await waitFor(() => expect(first.result.current.brandName).toBe('Shared Shop'));
    await waitFor(() => expect(second.result.current.brandName).toBe('Shared Shop'));
    // Mounted while the others are: its very first render already has the stored name, not the defaults.
    const later = renderHook(() => useSettings());
    expect(later.result.current.brandName).toBe('Shared Shop');
    await getPublicDb().settings.put({ ...defaults, brandName: 'Renamed Shop', id: 'site' });
    await waitFor(() => expect(later.result.current.brandName).toBe('Renamed Shop'));
    expect(first.result.current.brandName).toBe('Renamed Shop');
  });
});

describe('usePendingIds', () => {
  it('holds the rows with a change still waiting, and not those of refused changes', async () => {
    const uid = crypto.randomUUID();
    const db = getUserDb(uid);
    const { result } = renderHook(() => usePendingIds(), { wrapper: wrapper(signedIn(uid)) });
    const base = { createdAt: new Date().toISOString(), attempts: 0 };
    await db.outbox.bulkAdd([
      {
        ...base,
        id: 'e1',
        name: 'setOrderStatus',
        args: { orderId: 'order-1', orderStatus: 'processing', version: 1 },
        status: 'pending',
        target: { table: 'orders', id: 'order-1' },
      },
      {
        ...base,
        id: 'e2',
        name: 'deliverOrder',
        args: { orderId: 'order-2', version: 1, stockId: 'stock-1' },
        status: 'pending',
        target: { table: 'orders', id: 'order-2' },
      },
      {
        ...base,
        id: 'e3',
        name: 'setOrderStatus',
        args: { orderId: 'order-3', orderStatus: 'processing', version: 1 },
        status: 'failed',
        target: { table: 'orders', id: 'order-3' },
      },
    ]);
    await waitFor(() => expect([...result.current].sort()).toEqual(['order-1', 'order-2', 'stock-1']));
  });
});
