import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { readMailbox } from '../edge-api/src/auth/embedded/mailer.ts';
import type { Order } from '../edge-api/src/contract/orders.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import type { TicketList } from '../edge-api/src/contract/tickets.ts';
import { shortOrderId } from '../pwa/src/lib/order-rules.ts';
import {
  apiSession,
  checkA11yAtBoth,
  demoLogins,
  goOffline,
  goOnline,
  PHONE,
  setUpServerAndBrowser,
  signIn,
  TABLET,
  waitForServiceWorkerControl,
} from './harness.ts';

// Issue 27, item 1 ("Done when"): a customer opens a ticket on a phone, goes offline, replies, comes back
// online and sees one reply sent; staff answer from a tablet and the customer is told.

const e2e = setUpServerAndBrowser();
const slow = { timeout: 240_000 };

async function eventually<T>(probe: () => Promise<T | undefined | false>, what: string): Promise<T> {
  for (let attempt = 0; attempt < 150; attempt++) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

const subject = `Order question ${crypto.randomUUID().slice(0, 6)}`;

async function serverTicket(token: { get<T>(path: string): Promise<T> }) {
  const list = await token.get<TicketList>('/api/tickets');
  return list.tickets.find((ticket) => ticket.subject === subject);
}

describe('support tickets', () => {
  it(
    'a customer opens a ticket on a phone, replies offline, and exactly one reply reaches the shop; staff answer from a tablet and the customer is told',
    slow,
    async () => {
      const customer = await apiSession(e2e.server.url, demoLogins.customer);
      const services = await customer.get<Service[]>('/api/services');
      const service = services.find((candidate) => !candidate.needsDetails) ?? services[0]!;
      const placed = await customer.call<{ order: Order }>('POST', '/api/orders', { productId: service.id }, 201);
      const orderId = placed.order.id;

      const phone = await e2e.context({ viewport: PHONE });
      const page: Page = await phone.newPage();
      await page.goto('/');
      await waitForServiceWorkerControl(page);
      await signIn(page, demoLogins.customer);
      await page.goto('/my-orders');
      const card = page.locator('article').filter({ has: page.getByText(`#${shortOrderId(orderId)}`, { exact: true }) });
      await card.getByRole('link', { name: 'Open a ticket about this order' }).click();
      await page.getByRole('heading', { name: 'New ticket' }).waitFor();
      await page.getByLabel('Subject').fill(subject);
      await page.getByLabel('Message').fill('When will it be delivered?');
      await checkA11yAtBoth(page, PHONE);
      await page.getByRole('button', { name: 'Open ticket' }).click();
      await page.getByTestId('ticket-thread').getByRole('heading', { name: subject }).waitFor();
      const opened = await eventually(() => serverTicket(customer), 'the ticket on the server');
      assert.equal(opened.orderId, orderId);

      // Offline: the reply shows at once and waits; back online it is sent, once.
      await goOffline(phone);
      await page.getByLabel('Reply', { exact: true }).fill('I paid by bKash, sent from offline');
      await page.getByRole('button', { name: 'Send reply' }).click();
      const thread = page.getByTestId('ticket-thread');
      await thread.getByText('I paid by bKash, sent from offline').waitFor();
      await thread.getByText('Waiting to send').waitFor();
      await checkA11yAtBoth(page, PHONE);
      await goOnline(phone);
      await thread.getByText('Waiting to send').waitFor({ state: 'detached', timeout: 60_000 });
      const replied = await eventually(async () => {
        const ticket = await serverTicket(customer);
        return ticket && ticket.messages.length >= 2 && ticket;
      }, 'the reply on the server');
      // A while later (further syncs, a reload) there is still exactly one reply.
      await page.reload();
      await thread.getByText('I paid by bKash, sent from offline').waitFor();
      const settled = (await serverTicket(customer))!;
      assert.deepEqual(
        settled.messages.map((m) => m.body),
        ['When will it be delivered?', 'I paid by bKash, sent from offline'],
      );
      assert.equal(replied.id, settled.id);

      // Staff on a tablet: the queue shows the unread ticket; a moderator answers.
      const tablet = await e2e.context({ viewport: TABLET });
      const staffPage = await tablet.newPage();
      await signIn(staffPage, demoLogins.moderator);
      await staffPage.goto('/dashboard/tickets');
      await staffPage.getByRole('heading', { name: 'Support Tickets' }).waitFor();
      await staffPage.getByRole('button', { name: new RegExp(subject) }).click();
      await staffPage.getByTestId('ticket-thread').getByText('I paid by bKash, sent from offline').waitFor();
      await checkA11yAtBoth(staffPage, TABLET);
      await staffPage.getByLabel('Reply', { exact: true }).fill('Thanks, we deliver it within the hour.');
      await staffPage.getByRole('button', { name: 'Send reply' }).click();
      await eventually(async () => (await serverTicket(customer))?.status === 'waiting', 'the staff answer on the server');
      await tablet.close();

      // The customer is told: an email in the shop's local mailbox, and the unread answer on their phone.
      const mail = await eventually(
        async () => (await readMailbox(join(e2e.server.dataDir, 'mailbox'))).find((m) => m.to === demoLogins.customer.email && m.subject.includes(subject)),
        'the email to the customer',
      );
      assert.match(mail.text, /we deliver it within the hour/);
      await page.goto('/support');
      await page.getByRole('button', { name: new RegExp(`${subject}.*1 unread`) }).waitFor({ timeout: 60_000 });
      await phone.close();
    },
  );
});
