import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALLOW_STEPS } from '../../lib/web-push.ts';
import { NotificationsCard, PROMPT_DISMISSED } from './notifications-card.tsx';

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
    if (!('serviceWorker' in navigator))
      Object.defineProperty(navigator, 'serviceWorker', { value: { getRegistration: async () => undefined }, configurable: true });
    render(<NotificationsCard staff />);
    await screen.findByText(/Notifications are blocked for this site/);
    expect(screen.getByText(/new orders and payment proofs to check/)).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Notifications on this device' })).toHaveProperty('disabled', true);
  });

  describe('turning it on', () => {
    /** A browser that supports push, with the shop's key served, whose prompt answers `answer` and whose subscribe does `subscribe`. */
    function browser(answer: NotificationPermission, subscribe: () => Promise<PushSubscription>) {
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      vi.stubGlobal('PushManager', class {});
      const notification = { permission: 'default' as NotificationPermission, requestPermission: vi.fn(async () => (notification.permission = answer)) };
      vi.stubGlobal('Notification', notification);
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => Response.json({ pushPublicKey: 'BPv3aWtleQ' })),
      );
      const registration = { pushManager: { getSubscription: async () => null, subscribe } };
      Object.defineProperty(navigator, 'serviceWorker', {
        value: { getRegistration: async () => registration, ready: Promise.resolve(registration) },
        configurable: true,
      });
    }

    async function turnOn() {
      render(<NotificationsCard staff={false} />);
      await screen.findByText('Off on this device.');
      fireEvent.click(screen.getByRole('switch', { name: 'Notifications on this device' }));
      return screen.findByRole('alert');
    }

    it('says in plain words that the browser could not sign the device up, never its raw error', async () => {
      browser('granted', () => Promise.reject(new DOMException('Registration failed - push service error', 'AbortError')));
      const alert = await turnOn();
      expect(alert.textContent).toMatch(/^Your browser could not sign this device up with its notification service\. Check your connection and try again/);
      expect(alert.textContent).not.toMatch(/Registration failed/);
    });

    it('says the browser refused, and how to allow notifications, when the subscription is not allowed', async () => {
      browser('granted', () => Promise.reject(new DOMException('Registration failed - permission denied', 'NotAllowedError')));
      const alert = await turnOn();
      expect(alert.textContent).toBe(`Your browser refused notifications for this site. ${ALLOW_STEPS}`);
    });

    it('says the question was closed without an answer, and what to do, when the prompt is dismissed', async () => {
      browser('default', () => Promise.reject(new Error('not asked')));
      const alert = await turnOn();
      expect(alert.textContent).toBe(PROMPT_DISMISSED);
    });

    it('explains the block and how to lift it when the person blocks notifications at the prompt', async () => {
      browser('denied', () => Promise.reject(new Error('not asked')));
      render(<NotificationsCard staff={false} />);
      await screen.findByText('Off on this device.');
      fireEvent.click(screen.getByRole('switch', { name: 'Notifications on this device' }));
      expect((await screen.findByText(/Notifications are blocked for this site/)).textContent).toContain(ALLOW_STEPS);
    });
  });
});
