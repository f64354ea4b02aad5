import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Coupon } from '../../../../edge-api/src/contract/coupons.ts';
import type { ApiHarness, TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { CouponForm } from './coupon-form.tsx';

// The form talks to the real API app in-process, with the user signed in through its own auth (render-signed-in.tsx).

const kit = signedInKit();
let api: ApiHarness;
let admin: TestUser;

beforeAll(async () => {
  api = kit.api();
  admin = await signInAs(api, 'admin');
});
afterEach(cleanup);

describe('editing a coupon (issue 32 item 2)', () => {
  it('shows its limits, refuses a bad one on its field changing nothing, then saves, keeping it switched off', async () => {
    const made = await api.call<Coupon>('POST', '/api/admin/coupons', {
      user: admin,
      json: { code: 'EDIT-ME', kind: 'fixed', amount: '3', maxUses: 5, enabled: false },
    });
    const onSaved = vi.fn();
    render(<CouponForm services={[]} editing={made.body} onSaved={onSaved} onCancel={() => {}} />);
    const form = screen.getByRole('form', { name: 'Edit Coupon EDIT-ME' });
    expect((screen.getByLabelText('Uses in all (optional)') as HTMLInputElement).value).toBe('5');
    fireEvent.change(screen.getByLabelText('Uses in all (optional)'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Coupon' }));
    await screen.findByText('must be at least 1', {}, { timeout: 5000 });
    expect(form).toBeTruthy();
    expect((await api.db.selectFrom('coupons').select('max_uses').where('id', '=', made.body.id).executeTakeFirstOrThrow()).max_uses).toBe(5);
    fireEvent.change(screen.getByLabelText('Uses in all (optional)'), { target: { value: '12' } });
    fireEvent.change(screen.getByLabelText('Uses per customer (optional)'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save Coupon' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled(), { timeout: 5000 });
    const row = await api.db.selectFrom('coupons').selectAll().where('id', '=', made.body.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ max_uses: 12, max_uses_per_customer: 2, enabled: false, amount: '3.00' });
  });
});
