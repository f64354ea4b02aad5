import type { Session } from '@supabase/auth-js';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Navigate, Outlet, Route, Routes } from 'react-router-dom';
import { isStaffRole, type Role, type User } from '../../../../edge-api/src/contract/users.ts';
import type { WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { ConfirmProvider } from '../../components/confirm-dialog.tsx';
import { ToastProvider } from '../../components/toast.tsx';
import { getUserDb } from '../../db/local-db.ts';
import { AuthContext } from '../../lib/auth.tsx';
import { StaffRoleProvider } from '../../lib/authorization.tsx';
import { AddWiseStockPage } from './add-wise-stock-page.tsx';
import { ImportStockPage } from './import-stock-page.tsx';
import { WiseStockDetailsPage } from './wise-stock-details-page.tsx';
import { WiseStocksPage } from './wise-stocks-page.tsx';

// Test support for the Wise stock screens: a signed-in staff member whose device has synced `stocks` and `users`.

/** The form's field whose label starts with `label` (a required field's label ends in ' *'). */
export const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}`));

/** The first bytes of a PNG: enough for the upload's type check. */
export const pngBytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

export const staffId = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

export function person(fields: Partial<User> & Pick<User, 'uid' | 'displayName' | 'userRole'>): User {
  return {
    email: `${fields.displayName.toLowerCase().replace(/\s+/g, '.')}@demo.test`,
    mobile: '01711000000',
    createdAt: '2026-01-05T10:00:00.000Z',
    updatedAt: '2026-01-05T10:00:00.000Z',
    version: 1,
    ...fields,
  };
}

let serial = 0;
export function stockRow(fields: Partial<WiseStock> = {}): WiseStock {
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
    status: 'available',
    soldTo: null,
    orderId: null,
    notes: '',
    createdAt: new Date(2026, 0, serial, 12).toISOString(),
    updatedAt: new Date(2026, 0, serial, 12).toISOString(),
    version: serial,
    ...fields,
  };
}

let seededRole: Role = 'admin';

/** Fills the staff member's device database as a finished sync would. */
export async function seedDevice(role: Role, stocks: WiseStock[], users: User[] = []): Promise<void> {
  seededRole = role;
  const db = getUserDb(staffId);
  await db.users.bulkPut([person({ uid: staffId, displayName: 'Demo Admin', userRole: role, email: 'admin@demo.test' }), ...users]);
  await db.wiseStocks.bulkPut(stocks);
  await db.meta.put({ key: 'cursor', value: 1 });
}

/** Renders the dashboard route `path` as the signed-in staff member, with the role seeded on the device (as the dashboard's guard provides it). */
export function renderAsStaff(path: string) {
  const session = {} as Session;
  return render(
    <AuthContext value={{ status: 'signedIn', user: { id: staffId, email: 'admin@demo.test' }, session }}>
      <ToastProvider>
        <ConfirmProvider>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route
                path="/dashboard"
                element={
                  isStaffRole(seededRole) ? (
                    <StaffRoleProvider role={seededRole}>
                      <Outlet />
                    </StaffRoleProvider>
                  ) : (
                    <Navigate to="/login" replace />
                  )
                }
              >
                <Route path="all-wise-stocks" element={<WiseStocksPage />} />
                <Route path="wise-stocks/:id" element={<WiseStockDetailsPage />} />
                <Route path="add-wise-stocks" element={<AddWiseStockPage />} />
                <Route path="import-wise-stocks" element={<ImportStockPage />} />
              </Route>
              <Route path="/login" element={<h1>Login screen</h1>} />
            </Routes>
          </MemoryRouter>
        </ConfirmProvider>
      </ToastProvider>
    </AuthContext>,
  );
}
