import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiHarness, TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { deleteUserDb } from '../../db/local-db.ts';
import { signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { renderAsStaff, seedDevice, staffId, stockRow } from './render-as-staff.tsx';

// The browser's download is the one thing stood in for: the file as it would be saved.
const saved = vi.hoisted(() => [] as { name: string; text: Promise<string> }[]);
vi.mock('../../lib/save-file.ts', () => ({ saveBlobAs: (blob: Blob, name: string) => saved.push({ name, text: blob.text() }) }));

const kit = signedInKit();
let api: ApiHarness;
let admin: TestUser;

beforeAll(async () => {
  api = kit.api();
  admin = await signInAs(api, 'admin');
  const added = await api.call('POST', '/api/wise-stocks', {
    user: admin,
    json: {
      wiseName: 'Export Holder',
      wiseEmail: 'export.holder@wise.test',
      wisePassword: 'Export#Secret-1',
      authImage: 'https://img.example/a.png',
      userName: 'Demo Admin',
    },
  });
  expect(added.status).toBe(201);
});
beforeEach(() => {
  saved.length = 0;
});
afterEach(async () => {
  cleanup();
  await deleteUserDb(staffId);
});

describe('Export CSV on the stock list', () => {
  it('downloads the stock without passwords, and with them only when ticked and confirmed', async () => {
    await seedDevice('admin', [stockRow()]);
    renderAsStaff('/dashboard/all-wise-stocks');
    fireEvent.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toMatch(/^wise-stocks-\d{4}-\d{2}-\d{2}\.csv$/);
    const plain = await saved[0]!.text;
    expect(plain).toContain('export.holder@wise.test');
    expect(plain).not.toContain('Export#Secret-1');

    fireEvent.click(screen.getByLabelText('Include passwords'));
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export with passwords?' });
    fireEvent.click(dialog.querySelector('button.btn-error')!);
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(await saved[1]!.text).toContain('Export#Secret-1');
    const audits = await api.db.selectFrom('audit_log').select('details').where('action', '=', 'wise_stock.export').execute();
    expect(audits.map((row) => row.details)).toEqual([
      { passwords: false, status: 'all' },
      { passwords: true, status: 'all' },
    ]);
  });
});
