import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { sql } from 'kysely';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiHarness, TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { ToastProvider } from '../../components/toast.tsx';
import { StaffRoleProvider } from '../../lib/authorization.tsx';
import { signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { ApiKeysPage } from './api-keys-page.tsx';

// The API Keys screen pages the keys as the server does (decision 242): the newest 100, then "Load more",
// on the real API app in-process, with the user signed in through its own auth (render-signed-in.tsx).

const kit = signedInKit();
let api: ApiHarness;
let admin: TestUser;

beforeAll(async () => {
  api = kit.api();
  admin = await signInAs(api, 'admin');
  const reseller = await api.createUser('user', 'reseller');
  // 102 keys of the reseller, a minute apart: Paged key 000 the oldest.
  await sql`insert into api_keys (id, user_id, name, prefix, secret_hash, scopes, created_by, created_at)
    select gen_random_uuid(), ${reseller.id}, 'Paged key ' || lpad(n::text, 3, '0'), 'sk_test', encode(sha256(gen_random_uuid()::text::bytea), 'hex'),
      array['orders:read'], ${admin.id}, now() - interval '1 day' + n * interval '1 minute'
    from generate_series(0, 101) as n`.execute(api.db);
});
afterEach(cleanup);

const shownKeys = () =>
  within(screen.getByRole('region', { name: 'All Keys' }))
    .getAllByRole('listitem')
    .map((item) => /Paged key \d+/.exec(item.textContent ?? '')?.[0]);

describe('the API Keys screen', () => {
  it('shows the newest 100 keys and the older ones after Load more, each once, then no more button', async () => {
    render(
      <StaffRoleProvider role="admin">
        <ToastProvider>
          <ApiKeysPage />
        </ToastProvider>
      </StaffRoleProvider>,
    );
    await screen.findByRole('region', { name: 'All Keys' }, { timeout: 10_000 });
    expect(shownKeys()).toEqual(Array.from({ length: 100 }, (_, i) => `Paged key ${String(101 - i).padStart(3, '0')}`));

    fireEvent.click(screen.getByRole('button', { name: 'Load more API keys' }));
    await waitFor(() => expect(shownKeys()).toHaveLength(102), { timeout: 10_000 });
    expect(shownKeys()).toEqual(Array.from({ length: 102 }, (_, i) => `Paged key ${String(101 - i).padStart(3, '0')}`));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more API keys' })).toBeNull());
  });
});
