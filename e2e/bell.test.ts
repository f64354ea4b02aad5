import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Ticket, TicketList } from '../edge-api/src/contract/tickets.ts';
import { apiSession, checkA11yAtBoth, demoLogins, PHONE, setUpServerAndBrowser, signIn } from './harness.ts';

/**
 * The customer's bell (decision 141): a staff answer to a customer's ticket rings the bell in the
 * storefront bar on their phone; it opens the ticket, and once read the bell is quiet again.
 */
const e2e = setUpServerAndBrowser();

describe("the customer's bell", () => {
  it('counts a ticket staff answered, opens it, and is quiet once it is read', { timeout: 240_000 }, async () => {
    const customer = await apiSession(e2e.server.url, demoLogins.customer);
    const moderator = await apiSession(e2e.server.url, demoLogins.moderator);
    const subject = `Bell check ${crypto.randomUUID().slice(0, 6)}`;
    const opened = await customer.call<Ticket>('POST', '/api/tickets', {
      id: crypto.randomUUID(),
      messageId: crypto.randomUUID(),
      subject,
      body: 'Can I change my plan?',
    });
    await moderator.call('POST', `/api/tickets/${opened.id}/messages`, { id: crypto.randomUUID(), body: 'Yes: reply with the plan you want.' });

    await e2e.withPage(async (page) => {
      await page.setViewportSize(PHONE);
      await signIn(page, demoLogins.customer);
      await page.goto('/');
      const bell = page.getByRole('button', { name: 'Notifications' });
      // The count is the button's description: the answered ticket, synced to the device.
      await page.getByText('1 thing needs your attention').waitFor({ timeout: 60_000 });
      assert.equal(await bell.getAttribute('aria-expanded'), 'false');
      await bell.click();
      const item = page.getByRole('link', { name: new RegExp(`Support replied: ${subject}`) });
      await item.waitFor();
      await checkA11yAtBoth(page, PHONE);

      await item.click();
      await page.waitForURL(`**/support#ticket-${opened.id}`);
      await page.getByTestId('ticket-thread').getByText('Yes: reply with the plan you want.').waitFor();
      await page.getByText('Nothing needs your attention').waitFor({ timeout: 60_000 });
      await checkA11yAtBoth(page, PHONE);
    });
    // Read on the phone, so read on the server: the list (which marks nothing read) says so.
    const list = await customer.get<TicketList>('/api/tickets');
    assert.equal(list.tickets.find((ticket) => ticket.id === opened.id)?.unreadByCustomer, 0);
  });
});
