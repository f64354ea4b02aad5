import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkA11y, demoLogins, setUpServerAndBrowser, signIn } from './harness.ts';

const e2e = setUpServerAndBrowser();
let workDir: string;

// A 1x1 PNG: a real image the server's magic-byte check accepts.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

before(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'wise-stocks-e2e-'));
});

after(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('The condition did not become true in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('Wise stocks', () => {
  it('adds a stock with an authentication image, lists it, opens it and sells it to a customer', { timeout: 180_000 }, async () => {
    await e2e.withPage(async (page) => {
      await signIn(page, demoLogins.admin);

      // Add Wise Stock
      await page.goto('/dashboard/add-wise-stocks');
      await page.getByRole('heading', { level: 1, name: 'Add New Wise Stock' }).waitFor();
      await checkA11y(page);
      await page.getByLabel('Account Holder Name').fill('Farhana Kabir');
      await page.getByLabel('Email Address').fill('farhana.wise@e2e.test');
      await page.getByLabel(/^Password( \*)?$/).fill('Wise#Farhana-2026');
      const image = join(workDir, 'auth.png');
      await writeFile(image, PNG);
      await page.getByLabel('Authentication Image').setInputFiles(image);
      await page.getByText('Image uploaded', { exact: true }).waitFor();
      // The preview shows the picture itself (it may still be decoding when the notice appears).
      const preview = page.getByRole('img', { name: 'Authentication Image preview' });
      await waitUntil(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0));
      assert.equal(await page.getByLabel('Your Name').inputValue(), 'Demo Admin');
      await page.getByRole('button', { name: 'Add Wise Stock' }).click();
      await page.getByText('Wise stock added successfully').waitFor();
      // The form clears itself for the next stock.
      await waitUntil(async () => (await page.getByLabel('Account Holder Name').inputValue()) === '');
      assert.equal(await page.getByText('Image uploaded', { exact: true }).count(), 0);

      // The list
      await page.goto('/dashboard/all-wise-stocks');
      await page.getByRole('heading', { level: 1, name: 'Wise Stocks Management' }).waitFor();
      await page.getByPlaceholder('Search by name, email, or sold to...').fill('farhana');
      const row = page.getByRole('row').filter({ hasText: 'Farhana Kabir' });
      // The unfiltered list holds her row too: wait for the search to have narrowed it to the header and hers.
      await waitUntil(async () => (await page.getByRole('row').count()) === 2);
      await row.waitFor();
      // Masked on the list until tapped.
      assert.equal(await row.getByText('Wise#Farhana-2026').count(), 0);
      await row.getByRole('button', { name: 'Show password of Farhana Kabir' }).click();
      await row.getByText('Wise#Farhana-2026').waitFor();
      await row.getByText('Available').waitFor();
      await checkA11y(page);

      // The details
      await row.getByRole('link', { name: /View Details/ }).click();
      await page.waitForURL(/\/dashboard\/wise-stocks\/[0-9a-f-]{36}$/);
      await page.getByRole('heading', { level: 1, name: 'Farhana Kabir' }).waitFor();
      await page.getByText('farhana.wise@e2e.test').waitFor();
      const auth = page.getByRole('img', { name: 'Authentication Image', exact: true });
      await auth.waitFor();
      await page.waitForFunction(() => {
        const img = document.querySelector('img[alt="Authentication Image"]') as HTMLImageElement | null;
        return !!img && img.complete && img.naturalWidth > 0;
      });
      await checkA11y(page);

      // Sold to the demo customer
      await page.getByRole('button', { name: 'Update Status' }).click();
      const dialog = page.getByRole('dialog', { name: 'Update Stock Status' });
      await dialog.waitFor();
      assert.equal(await dialog.getByLabel('Status', { exact: true }).inputValue(), 'available', 'the modal opens on the current status');
      await dialog.getByLabel('Status', { exact: true }).selectOption('sold');
      const buyer = dialog.getByLabel('Sold To User');
      await buyer.locator('option', { hasText: 'customer@demo.test' }).waitFor({ state: 'attached' });
      await checkA11y(page);
      await buyer.selectOption({ label: 'Demo Customer — customer@demo.test (user)' });
      await dialog.getByRole('button', { name: 'Update Status' }).click();
      await page.getByText('Stock status updated successfully', { exact: true }).waitFor();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('(to Demo Customer)').waitFor();

      // The server has it: a fresh load says the same, with nothing left waiting to sync.
      await page.reload();
      await page.getByText('(to Demo Customer)').waitFor();
      assert.equal(await page.getByText('Pending sync').count(), 0);
      await page.goto('/dashboard/all-wise-stocks?q=farhana');
      const soldRow = page.getByRole('row').filter({ hasText: 'Farhana Kabir' });
      await soldRow.getByText('Demo Customer').waitFor();
      await soldRow.getByText('Sold', { exact: true }).waitFor();
    });
  });
  it('imports a CSV file after a preview of every line, shows the batch in the stock list and withdraws it', { timeout: 180_000 }, async () => {
    await e2e.withPage(async (page) => {
      await signIn(page, demoLogins.admin);
      await page.goto('/dashboard/all-wise-stocks');
      await page.getByRole('link', { name: 'Import Stock' }).click();
      await page.getByRole('heading', { level: 1, name: 'Import Wise Stock' }).waitFor();
      assert.equal(await page.getByRole('link', { name: 'Download template' }).getAttribute('download'), 'wise-stock-template.csv');
      await checkA11y(page);

      const csv = join(workDir, 'stock.csv');
      await writeFile(
        csv,
        [
          'email,password,name,notes',
          'imported.one@e2e.test,Import#One-1,Imported One,first',
          'imported.two@e2e.test,Import#Two-2,Imported Two,',
          'IMPORTED.ONE@e2e.test,Import#Three-3,Twice,',
          'arif.wise@demo-mail.test,Import#Four-4,Already Stocked,',
          'not-an-email,Import#Five-5,Broken,',
        ].join('\n'),
      );
      await page.getByLabel('Batch label').fill('E2E batch');
      await page.getByLabel('File (.csv or .txt)').setInputFiles(csv);
      await waitUntil(async () => (await page.getByLabel('Lines to import').inputValue()).includes('imported.two@e2e.test'));
      await page.getByRole('button', { name: 'Preview' }).click();
      await page.getByRole('heading', { name: 'Preview of 5 lines' }).waitFor();
      const result = (line: number) => page.getByRole('row').filter({ has: page.getByRole('cell', { name: String(line), exact: true }) });
      await result(2).getByText('New', { exact: true }).waitFor();
      await result(4).getByText('same email as line 2').waitFor();
      await result(5).getByText('email already in stock').waitFor();
      await result(6).getByText('Invalid', { exact: true }).waitFor();
      await checkA11y(page);

      await page.getByRole('button', { name: 'Import 2 new lines' }).click();
      await page.getByText('Imported 2 Wise stocks as batch “E2E batch”').waitFor();

      await page.goto('/dashboard/all-wise-stocks?q=imported');
      await page.getByRole('row').filter({ hasText: 'Imported Two' }).getByText('Batch: E2E batch').waitFor();
      assert.equal(await page.getByRole('row').count(), 3, 'the header and the two imported stocks');
      const panel = page.getByRole('region', { name: 'Import batches' });
      await panel.getByText(/^2 imported by Demo Admin on .* · 2 available$/).waitFor();
      await panel.getByRole('button', { name: 'Withdraw available stocks of batch E2E batch' }).click();
      await page.getByRole('dialog', { name: 'Withdraw this batch?' }).getByRole('button', { name: 'Withdraw available' }).click();
      await page.getByText('Withdrew 2 available stocks of batch “E2E batch”').waitFor();
      await page.getByText('No Wise stocks found').waitFor();
    });
  });
});
