import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { apiSession, checkA11y, demoLogins, setUpServerAndBrowser, signIn } from './harness.ts';

// Issue 12 / decision 048: a moderator's stock list and details hold every stock password masked; the
// Show button asks the server (POST /api/wise-stocks/:id/reveal), which records the look in the audit
// log, and the password is masked again by Hide. Nothing the moderator's browser received before the tap
// carries the password.
const setup = setUpServerAndBrowser();
const adminGet = async <T>(path: string): Promise<T> => (await apiSession(setup.server.url, demoLogins.admin)).get<T>(path);

const reveals = async (stockId: string) =>
  (await adminGet<{ action: string; actorEmail: string }[]>(`/api/admin/audit?entity=wise_stock&entityId=${stockId}`)).filter(
    (entry) => entry.action === 'wise_stock.reveal',
  );

/** Every answer of the API to this page, as text, read once the page has them (the reveal's own aside). */
function recordAnswers(page: Page): () => Promise<string[]> {
  const bodies: Promise<string>[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith('/api/') || url.pathname.endsWith('/reveal')) return;
    bodies.push(response.text().catch(() => ''));
  });
  return () => Promise.all(bodies);
}

describe('the moderator reveal button', () => {
  it('shows a stock password masked to a moderator until Show, records each reveal, and masks it again', { timeout: 240_000 }, async () => {
    const stocks = await adminGet<{ id: string; wiseName: string; wisePassword: string }[]>('/api/wise-stocks');
    const stock = stocks.find((s) => s.wiseName === 'Nadia Islam');
    assert.ok(stock && stock.wisePassword.length > 0, 'the demo stock and its password, as the admin reads it');
    const secret = stock.wisePassword;
    assert.deepEqual(await reveals(stock.id), []);

    await setup.withPage(async (page) => {
      const answers = recordAnswers(page);
      await signIn(page, demoLogins.moderator);
      for (const width of [412, 820]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/dashboard/all-wise-stocks?q=nadia');
        await page.getByRole('heading', { level: 1, name: 'Wise Stocks Management' }).waitFor();
        const row = page.getByRole('row').filter({ hasText: 'Nadia Islam' });
        await row.waitFor();
        const show = row.getByRole('button', { name: 'Show password of Nadia Islam' });
        await show.waitFor();
        assert.equal(await show.getAttribute('aria-pressed'), 'false');
        assert.equal(await page.getByText(secret).count(), 0, 'masked on the list');
        assert.ok(!(await page.content()).includes(secret), 'not anywhere in the page');
        await checkA11y(page);
      }
      // What the moderator's device was sent (the list, the sync pull) never holds the password.
      const received = await answers();
      assert.ok(received.length > 0);
      assert.ok(
        received.every((body) => !body.includes(secret)),
        'no API answer to the moderator carries the password',
      );

      // Show: asked of the server, recorded, shown; Hide masks it again.
      const row = page.getByRole('row').filter({ hasText: 'Nadia Islam' });
      const revealed = page.waitForResponse(
        (response) => response.url().endsWith(`/api/wise-stocks/${stock.id}/reveal`) && response.request().method() === 'POST',
      );
      await row.getByRole('button', { name: 'Show password of Nadia Islam' }).click();
      assert.equal((await revealed).status(), 200);
      await row.getByText(secret, { exact: true }).waitFor();
      assert.equal(await row.getByRole('button', { name: 'Hide password of Nadia Islam' }).getAttribute('aria-pressed'), 'true');
      await checkA11y(page);
      const first = await reveals(stock.id);
      assert.equal(first.length, 1);
      assert.equal(first[0]!.actorEmail, demoLogins.moderator.email);
      await row.getByRole('button', { name: 'Hide password of Nadia Islam' }).click();
      await row.getByRole('button', { name: 'Show password of Nadia Islam' }).waitFor();
      assert.equal(await page.getByText(secret).count(), 0);

      // The details page: masked too, and each look is one more audit row.
      await page.goto(`/dashboard/wise-stocks/${stock.id}`);
      await page.getByRole('heading', { level: 1, name: 'Nadia Islam' }).waitFor();
      assert.equal(await page.getByText(secret).count(), 0);
      await page.getByRole('button', { name: 'Show password of Nadia Islam' }).click();
      await page.getByText(secret, { exact: true }).waitFor();
      await checkA11y(page);
      assert.equal((await reveals(stock.id)).length, 2);
    });
  });

  it("an admin's list holds the password and its Show records nothing", { timeout: 120_000 }, async () => {
    await setup.withPage(async (page) => {
      await signIn(page, demoLogins.admin);
      await page.goto('/dashboard/all-wise-stocks?q=arif');
      const row = page.getByRole('row').filter({ hasText: 'Arif Hossain' });
      await row.getByRole('button', { name: 'Show password of Arif Hossain' }).click();
      const stocks = await adminGet<{ id: string; wiseName: string; wisePassword: string }[]>('/api/wise-stocks');
      const arif = stocks.find((s) => s.wiseName === 'Arif Hossain')!;
      await row.getByText(arif.wisePassword, { exact: true }).waitFor();
      assert.deepEqual(await reveals(arif.id), []);
    });
  });
});
