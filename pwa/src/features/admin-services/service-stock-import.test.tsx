import type { Session } from '@supabase/auth-js';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import type { ApiHarness, TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { ConfirmProvider } from '../../components/confirm-dialog.tsx';
import { ToastProvider } from '../../components/toast.tsx';
import { deleteUserDb } from '../../db/local-db.ts';
import { AuthContext } from '../../lib/auth.tsx';
import { StaffRoleProvider } from '../../lib/authorization.tsx';
import { signedInKit, signInAs } from '../../test/render-signed-in.tsx';
import { ServiceStockDialog } from './service-stock-dialog.tsx';
import { IMPORT_OFFLINE_MESSAGE } from './service-stock-import.tsx';

// The import form of a service's stock dialog (decision 075), on the real API app in-process, with the
// user signed in through its own auth (render-signed-in.tsx).

let api: ApiHarness;
let admin: TestUser;
let network: 'up' | 'down' = 'up';
const calls: string[] = [];
/** While set, the dialog's read of the stock list after an import waits for it: a loaded machine, made certain. */
let listReadsWait: Promise<void> | null = null;

const kit = signedInKit({ unreachable: () => network === 'down' });
beforeAll(async () => {
  api = kit.api();
  admin = await signInAs(api, 'admin');
});

beforeEach(() => {
  network = 'up';
  calls.length = 0;
  listReadsWait = null;
  const fetching = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    calls.push(url);
    if (listReadsWait && /\/api\/service-stocks\?serviceId=/.test(url)) await listReadsWait;
    return fetching(input, init);
  });
});

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await deleteUserDb(admin.id);
});

async function serverService(): Promise<Service> {
  const created = await api.call<Service>('POST', '/api/services', {
    user: admin,
    json: {
      title: `VPS ${crypto.randomUUID().slice(0, 6)}`,
      description: 'Servers',
      category: 'Other',
      price: '9',
      deliveryTime: '1hour',
      deliveryKind: 'server',
    },
  });
  expect(created.status).toBe(201);
  return created.body;
}

function renderDialog(service: Service, role: 'admin' | 'moderator', online = true) {
  render(
    <AuthContext value={{ status: 'signedIn', user: { id: admin.id, email: admin.email }, session: {} as Session }}>
      <StaffRoleProvider role={role}>
        <ToastProvider>
          <ConfirmProvider>
            <ServiceStockDialog service={service} online={online} onClose={() => {}} />
          </ConfirmProvider>
        </ToastProvider>
      </StaffRoleProvider>
    </AuthContext>,
  );
}

const rowsOnServer = async (serviceId: string) => (await api.db.selectFrom('service_stocks').selectAll().where('service_id', '=', serviceId).execute()).length;
const tag = () => crypto.randomUUID().slice(0, 6);

describe("Add many at once, in a service's stock dialog", () => {
  // Once skipped: on loaded CI runs "Import 1 item" never came after the fixed row's second preview. The
  // cause: the dialog kept Preview disabled until its read of the stock list after the first import had
  // finished, so a Preview tapped meanwhile did nothing. Here that read is held until the end, every time.
  it('previews the rows with problems by line and field, says why they block, imports the good rows and keeps the bad one in the box to fix (decision 198)', async () => {
    const service = await serverService();
    renderDialog(service, 'admin');
    const template = screen.getByRole('link', { name: 'Download template' });
    expect(decodeURIComponent(template.getAttribute('href')!.split(',').slice(1).join(','))).toMatch(/^host,port,user,password\r\n/);
    const bad = `b${tag()}.example.net,70000,root,Pw-b-${tag()}`;
    const rows = `host,port,user,password\na${tag()}.example.net,22,root,Pw-a-${tag()}\n${bad}\nc${tag()}.example.net,22,root,Pw-c-${tag()}`;

    fireEvent.change(screen.getByLabelText('Rows to add'), { target: { value: rows } });
    expect(screen.getByTestId('line-numbers').textContent).toBe('1\n2\n3\n4');
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    const table = await screen.findByRole('table', { name: 'Rows with problems' }, { timeout: 5_000 });
    expect([...within(table).getAllByRole('columnheader')].map((cell) => cell.textContent)).toEqual(['Line', 'Item', 'Field', 'Problem']);
    const cells = within(table).getAllByRole('row')[1]!.querySelectorAll('td');
    expect([...cells].map((cell) => cell.textContent)).toEqual([
      '3',
      expect.stringContaining(':70000') as unknown as string,
      'port',
      'must be a whole number from 1 to 65535',
    ]);
    expect(screen.getByText(/2 rows ready · 0 rows already in stock or delivered · 1 row with problems/)).toBeTruthy();
    expect(screen.getByTestId('import-blocked').textContent).toMatch(
      /^1 row cannot be imported as it is: fix it in the box above .* or import the 2 good rows now/,
    );
    expect(await rowsOnServer(service.id)).toBe(0);

    let releaseListReads = () => {};
    listReadsWait = new Promise((resolve) => (releaseListReads = resolve));
    fireEvent.click(screen.getByRole('button', { name: 'Import the 2 good rows' }));
    await waitFor(async () => expect(await rowsOnServer(service.id)).toBe(2), { timeout: 5_000 });
    await waitFor(() => expect((screen.getByLabelText('Rows to add') as HTMLTextAreaElement).value).toBe(bad), { timeout: 5_000 });
    expect(await screen.findByText(/2 items imported\. Left out, to fix in the box: 1 row\./, {}, { timeout: 5_000 })).toBeTruthy();

    // Fixed in place, it goes in too.
    fireEvent.change(screen.getByLabelText('Rows to add'), { target: { value: bad.replace(',70000,', ',2222,') } });
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Import 1 item' }, { timeout: 5_000 }));
    await waitFor(async () => expect(await rowsOnServer(service.id)).toBe(3), { timeout: 5_000 });
    releaseListReads();
    const list = await screen.findByRole('list', { name: 'Stock items' }, { timeout: 5_000 });
    await waitFor(() => expect(within(list).getAllByText('Available')).toHaveLength(3), { timeout: 5_000 });
    expect((screen.getByLabelText('Rows to add') as HTMLTextAreaElement).value).toBe('');
  });

  it('reads a chosen file into the rows, and asks for the override before importing duplicates', async () => {
    const service = await serverService();
    const password = `Dup-${tag()}`;
    expect(
      (
        await api.call('POST', '/api/service-stocks', {
          user: admin,
          json: { serviceId: service.id, server: { host: 'kept.example.net', port: 22, user: 'root', password } },
        })
      ).status,
    ).toBe(201);
    renderDialog(service, 'admin');
    const text = `d${tag()}.example.net,22,root,${password}\n`;
    const file = new File([text], 'servers.csv', { type: 'text/csv' });
    fireEvent.change(screen.getByLabelText('File (.csv or .txt)'), { target: { files: [file] } });
    await waitFor(() => expect((screen.getByLabelText('Rows to add') as HTMLTextAreaElement).value).toBe(text), { timeout: 5_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByText('already in stock', {}, { timeout: 5_000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Import 1 item' }));
    expect((await screen.findByRole('alert', {}, { timeout: 5_000 })).textContent).toContain('Add them anyway');
    expect(await rowsOnServer(service.id)).toBe(1);
    fireEvent.click(screen.getByLabelText(/Add them anyway/));
    fireEvent.click(screen.getByRole('button', { name: 'Import 1 item' }));
    await waitFor(async () => expect(await rowsOnServer(service.id)).toBe(2), { timeout: 5_000 });
  });

  it('says offline instead of queueing, and sends nothing', async () => {
    const service = await serverService();
    network = 'down';
    renderDialog(service, 'admin', false);
    expect(screen.getByText(IMPORT_OFFLINE_MESSAGE)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Rows to add'), { target: { value: `e${tag()}.example.net,22,root,Pw-${tag()}` } });
    expect((screen.getByRole('button', { name: 'Preview' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(screen.getByLabelText('Rows to add').closest('form')!);
    // Whatever would be sent is sent after the session's token is read: give it the time to.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls.filter((url) => url.includes('/service-stocks/'))).toEqual([]);
  });

  it('is not offered to a moderator', async () => {
    const service = await serverService();
    renderDialog(service, 'moderator');
    expect(screen.queryByRole('heading', { name: 'Add many at once' })).toBeNull();
    expect(screen.queryByLabelText('Rows to add')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Add stock' })).toBeTruthy();
  });
});
