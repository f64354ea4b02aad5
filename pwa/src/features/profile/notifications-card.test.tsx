import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NotificationsCard } from './notifications-card.tsx';

// The switch's states that need no push service (decision 067); subscribing is in e2e/push.test.ts.

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('NotificationsCard', () => {
  it('says so, with the switch off and disabled, in a browser that cannot show notifications', async () => {
    vi.stubGlobal('PushManager', undefined);
    render(<NotificationsCard staff={false} />);
    await screen.findByText(/This browser cannot show notifications from the shop/);
    const toggle = screen.getByRole('switch', { name: 'Notifications on this device' });
    expect(toggle).toHaveProperty('disabled', true);
    expect(toggle).toHaveProperty('checked', false);
    expect(screen.getByText(/when an order is delivered, replaced or changes status/)).toBeTruthy();
  });

  it('tells staff what they get, and how to undo a block, when notifications are blocked for the site', async () => {
    vi.stubGlobal('PushManager', class {});
    vi.stubGlobal('Notification', { permission: 'denied', requestPermission: vi.fn() });
    if (!('serviceWorker' in navigator)) Object.defineProperty(navigator, 'serviceWorker', { value: { getRegistration: async () => undefined }, configurable: true });
    render(<NotificationsCard staff />);
    await screen.findByText(/Notifications are blocked for this site/);
    expect(screen.getByText(/new orders and payment proofs to check/)).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Notifications on this device' })).toHaveProperty('disabled', true);
  });
});
