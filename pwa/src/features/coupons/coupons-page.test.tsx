import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { sql } from 'kysely';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { renderSignedIn, signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { CouponsPage } from './coupons-page.tsx';

// The Coupons screen pages the list as the server does (decision 242): the newest 100, then "Load more",
// on the real API app in-process, with an admin signed in through its own auth (render-signed-in.tsx).
const { api } = signedInKit();
let admin: TestUser;

beforeAll(async () => {
  admin = await signInAs(api(), 'admin');
  // 103 coupons, a minute apart: PAGED-000 the oldest.
  await sql`insert into coupons (id, code, kind, amount, created_at)
    select gen_random_uuid(), 'PAGED-' || lpad(n::text, 3, '0'), 'percent', 5, now() - interval '1 day' + n * interval '1 minute'
    from generate_series(0, 102) as n`.execute(api().db);
});
afterEach(cleanup);

const shownCodes = () =>
  within(screen.getByRole('region', { name: 'All Coupons' }))
    .getAllByRole('listitem')
    .map((item) => /PAGED-\d+/.exec(item.textContent ?? '')?.[0]);

describe('the Coupons screen', () => {
  it('shows the newest 100 coupons and the older ones after Load more, each once, then no more button', async () => {
    renderSignedIn(<CouponsPage />, admin);
    await screen.findByRole('region', { name: 'All Coupons' }, { timeout: 10_000 });
    expect(shownCodes()).toEqual(Array.from({ length: 100 }, (_, i) => `PAGED-${String(102 - i).padStart(3, '0')}`));

    fireEvent.click(screen.getByRole('button', { name: 'Load more coupons' }));
    await waitFor(() => expect(shownCodes()).toHaveLength(103), { timeout: 10_000 });
    expect(shownCodes()).toEqual(Array.from({ length: 103 }, (_, i) => `PAGED-${String(102 - i).padStart(3, '0')}`));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more coupons' })).toBeNull());
  });
});
