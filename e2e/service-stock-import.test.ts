import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServiceStock } from '../edge-api/src/contract/service-stocks.ts';
import type { Service } from '../edge-api/src/contract/services.ts';
import { apiSession, checkA11yAtBoth, demoLogins, setUpServerAndBrowser, signIn, TABLET } from './harness.ts';

// Decision 075: an admin imports server logins into a service's stock in one go (paste, Preview, Import),
// and sees them available. axe on the import form, its preview and the result at 412 and 820 px.

const e2e = setUpServerAndBrowser();

describe("importing a service's stock", () => {
  it('admin pastes three server logins, previews a bad row by row and field, fixes it with the keyboard, imports all three and sees them available', async () => {
    const admin = await apiSession(e2e.server.url, demoLogins.admin);
    const stamp = Date.now();
    const title = `VPS Import ${stamp}`;
    const service = await admin.call<Service>(
      'POST',
      '/api/services',
      {
        title,
        description: 'Servers, imported in bulk',
        category: 'vps',
        price: '12',
        deliveryTime: 'instant',
        deliveryKind: 'server',
        image: `${e2e.server.url}/pwa-192.png`,
      },
      201,
    );

    const tablet = await e2e.context({ viewport: TABLET });
    const page = await tablet.newPage();
    await signIn(page, demoLogins.admin);
    await page.goto('/dashboard/admin-services');
    await page.getByRole('button', { name: `Stock of ${title}` }).click();
    const dialog = page.getByRole('dialog', { name: `Stock: ${title}` });
    await dialog.getByRole('heading', { name: 'Add many at once' }).waitFor();

    const rows = (port: string) =>
      [
        'host,port,user,password',
        `imp-a-${stamp}.example.net,22,root,Imp#a-${stamp}`,
        `imp-b-${stamp}.example.net,${port},admin,Imp#b-${stamp}`,
        `imp-c-${stamp}.example.net,2222,ubuntu,Imp#c-${stamp}`,
      ].join('\n');
    const textarea = dialog.getByLabel('Rows to add');
    await textarea.fill(rows('99999'));
    // Keyboard: from the rows to the Preview button.
    await textarea.focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const problems = dialog.getByRole('table', { name: 'Rows with problems' });
    await problems.getByRole('cell', { name: 'must be a whole number from 1 to 65535' }).waitFor();
    assert.equal(await problems.getByRole('row').nth(1).getByRole('cell').first().textContent(), '3');
    // The two good rows could go alone; the dialog says why the third waits (decision 198).
    await dialog.getByRole('button', { name: 'Import the 2 good rows' }).waitFor();
    assert.match((await dialog.getByTestId('import-blocked').textContent()) ?? '', /^1 row cannot be imported/);
    await checkA11yAtBoth(page, TABLET);
    assert.equal((await admin.get<ServiceStock[]>(`/api/service-stocks?serviceId=${service.id}`)).length, 0, 'a preview writes nothing');

    await textarea.fill(rows('22'));
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByText('Preview: 3 rows ready · 0 rows already in stock or delivered · 0 rows with problems').waitFor();
    await dialog.getByRole('button', { name: 'Import 3 items' }).click();
    await dialog.getByText('3 available · 0 sold · 0 withdrawn').waitFor();
    for (const login of [`root@imp-a-${stamp}.example.net:22`, `admin@imp-b-${stamp}.example.net:22`, `ubuntu@imp-c-${stamp}.example.net:2222`]) {
      await dialog.getByRole('list', { name: 'Stock items' }).getByText(login).waitFor();
    }
    assert.equal(await dialog.getByText(`Imp#a-${stamp}`).count(), 0, 'no password is shown');
    await checkA11yAtBoth(page, TABLET);

    const listed = await admin.get<ServiceStock[]>(`/api/service-stocks?serviceId=${service.id}`);
    assert.deepEqual(
      listed.map((item) => item.status),
      ['available', 'available', 'available'],
    );
    await tablet.close();
  });
});
