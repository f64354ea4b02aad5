import type { Session } from '@supabase/auth-js';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { sql } from 'kysely';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import type { ApiHarness, TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { ConfirmProvider } from '../../components/confirm-dialog.tsx';
import { ToastProvider } from '../../components/toast.tsx';
import { deleteUserDb } from '../../db/local-db.ts';
import { AuthContext } from '../../lib/auth.tsx';
import { StaffRoleProvider } from '../../lib/authorization.tsx';
import { signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { ServiceStockDialog } from './service-stock-dialog.tsx';

// A service's import batches page as the server does (decision 242): the newest 100 in the stock dialog,
// then "Load more", on the real API app in-process, with the user
// signed in through its own auth (render-signed-in.tsx).

const kit = signedInKit();
let api: ApiHarness;
let admin: TestUser;
let service: Service;

beforeAll(async () => {
  api = kit.api();
  admin = await signInAs(api, 'admin');
  const created = await api.call<Service>('POST', '/api/services', {
    user: admin,
    json: { title: 'Paged VPS', description: 'Servers', category: 'Other', price: '9', deliveryTime: '1hour', deliveryKind: 'server' },
  });
  expect(created.status).toBe(201);
  service = created.body;
  // 101 imports of the service, a minute apart: Import 000 the oldest.
  await sql`insert into service_stock_batches (id, service_id, kind, label, added_by, user_name, user_email, item_count, created_at)
    select gen_random_uuid(), ${service.id}, 'server', 'Import ' || lpad(n::text, 3, '0'), ${admin.id}, 'Admin', ${admin.email}, 0,
      now() - interval '1 day' + n * interval '1 minute'
    from generate_series(0, 100) as n`.execute(api.db);
});
afterEach(async () => {
  cleanup();
  await deleteUserDb(admin.id);
});

const shownBatches = () =>
  within(screen.getByRole('region', { name: 'Import batches' }))
    .getAllByRole('listitem')
    .map((item) => /Import \d{3}/.exec(item.textContent ?? '')?.[0]);

describe("a service's import batches", () => {
  it('shows the newest 100 and the oldest after Load more, each once, then no more button', async () => {
    render(
      <AuthContext value={{ status: 'signedIn', user: { id: admin.id, email: admin.email }, session: {} as Session }}>
        <StaffRoleProvider role="admin">
          <ToastProvider>
            <ConfirmProvider>
              <ServiceStockDialog service={service} online onClose={() => {}} />
            </ConfirmProvider>
          </ToastProvider>
        </StaffRoleProvider>
      </AuthContext>,
    );
    await screen.findByRole('region', { name: 'Import batches' }, { timeout: 10_000 });
    expect(shownBatches()).toEqual(Array.from({ length: 100 }, (_, i) => `Import ${String(100 - i).padStart(3, '0')}`));

    fireEvent.click(screen.getByRole('button', { name: 'Load more import batches' }));
    await waitFor(() => expect(shownBatches()).toHaveLength(101), { timeout: 10_000 });
    expect(shownBatches().at(-1)).toBe('Import 000');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more import batches' })).toBeNull());
  });
});
