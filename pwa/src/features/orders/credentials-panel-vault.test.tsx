import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ToastProvider } from '../../components/toast.tsx';
import { CredentialsPanel } from './credentials-panel.tsx';

afterEach(cleanup);

// Decision 182: an order answered without its password (the account keeps a PIN vault on another device).
describe('the credentials panel of a password kept in a vault elsewhere', () => {
  it('says where the password is and how to get it here, instead of showing nothing', () => {
    render(
      <ToastProvider>
        <CredentialsPanel email="vault@wise.test" inVault title="Wise Personal Account" />
      </ToastProvider>,
    );
    expect(screen.getByTestId('delivered-password-in-vault').textContent).toBe(
      'Your passwords are locked with a PIN on another device. Sign in again on this device to get this one here.',
    );
    expect(screen.queryByRole('button', { name: /Show/ })).toBeNull();
  });

  it('shows the password as usual when the device has it', () => {
    render(
      <ToastProvider>
        <CredentialsPanel email="vault@wise.test" password="Kept-Here-1" inVault title="Wise Personal Account" />
      </ToastProvider>,
    );
    expect(screen.queryByTestId('delivered-password-in-vault')).toBeNull();
    expect(screen.getByRole('button', { name: 'Show password' })).toBeTruthy();
  });
});
