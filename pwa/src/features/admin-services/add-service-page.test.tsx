import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import type { ApiHarness, TestUser } from '../../../../edge-api/src/testing/api-harness.ts';
import { ToastProvider } from '../../components/toast.tsx';
import { getPublicDb } from '../../db/local-db.ts';
import { getSyncEngine } from '../../db/sync-engine.ts';
import { signedInKit, signInAs, switchTo } from '../../test/render-signed-in.tsx';
import { AddServiceForm } from './add-service-page.tsx';

// The form talks to the real API app in-process, with the user signed in through its own auth (render-signed-in.tsx).

let api: ApiHarness;
let admin: TestUser;
let uploadsFail = false;

/** A 1x1 PNG. */
const png = () =>
  new File(
    [Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0))],
    'shot.png',
    { type: 'image/png' },
  );

const kit = signedInKit({ unreachable: (url) => uploadsFail && url.pathname === '/api/uploads' });
beforeAll(async () => {
  api = kit.api();
  admin = await signInAs(api, 'admin');
});

beforeEach(async () => {
  uploadsFail = false;
  // One test signs in as a moderator: every test starts as the admin.
  await switchTo(admin);
});

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  await getSyncEngine().idle();
  await getPublicDb().services.clear();
});

function renderForm() {
  render(
    <MemoryRouter>
      <ToastProvider>
        <AddServiceForm />
      </ToastProvider>
    </MemoryRouter>,
  );
}

// Required fields' labels end in a star that screen readers skip.
const field = (label: string) => screen.getByLabelText(new RegExp(`^${label.replace(/[()]/g, '\\$&')}( \\*)?$`)) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });

async function fillAndSave(title: string) {
  type('Service Title', title);
  type('Description', 'Editable statement in Word and PDF.');
  fireEvent.change(field('Service Image (optional)'), { target: { files: [png()] } });
  type('Price', '12');
  type('Delivery Time', '3hours');
  fireEvent.click(field('bKash'));
  type('Feature 2', 'Word and PDF');
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save Service' })));
}

/** The image is uploaded and re-encoded before the save: on a loaded machine that takes seconds. */
const SAVED_WITHIN = { timeout: 15_000 };

const serverService = async (title: string) => (await api.call<Service[]>('GET', '/api/services')).body.find((s) => s.title === title);

describe('Add New Service form', () => {
  it('starts with category documents and three empty features, and requires the basic fields', async () => {
    // The file's other tests add services on the same server, in whatever order they run.
    const before = (await api.call<Service[]>('GET', '/api/services')).body;
    renderForm();
    expect(field('Category').value).toBe('documents');
    expect(screen.getAllByLabelText(/^Feature \d$/)).toHaveLength(3);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save Service' })));
    expect(screen.getByText('Service Title is required')).toBeTruthy();
    expect(screen.getByText('Price is required')).toBeTruthy();
    expect(screen.getByText('Delivery Time is required')).toBeTruthy();
    expect((await api.call<Service[]>('GET', '/api/services')).body).toEqual(before);
  });

  it('uploads the image first, saves the service, confirms and resets the form', async () => {
    renderForm();
    await fillAndSave('Statement With Image');
    expect(await screen.findByText('Service added successfully!', {}, SAVED_WITHIN)).toBeTruthy();
    const saved = await serverService('Statement With Image');
    expect(saved).toMatchObject({ category: 'documents', price: '12', deliveryTime: '3hours', features: ['Word and PDF'], paymentMethods: ['bkash'] });
    expect(saved?.image).toMatch(/^\/files\/service-images\/[\w-]+\.png$/);
    await waitFor(() => expect(field('Service Title').value).toBe(''));
    expect(screen.getAllByLabelText(/^Feature \d$/).map((input) => (input as HTMLInputElement).value)).toEqual(['', '', '']);
  });

  it('saves the service without an image when the upload fails, only logging the failure', async () => {
    uploadsFail = true;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderForm();
    await fillAndSave('Statement Without Image');
    expect(await screen.findByText('Service added successfully!', {}, SAVED_WITHIN)).toBeTruthy();
    expect((await serverService('Statement Without Image'))?.image).toBe('');
    expect(logged).toHaveBeenCalledWith(expect.stringMatching(/upload failed/), expect.anything());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('previews the chosen image, and removes it on request', async () => {
    renderForm();
    expect(screen.queryByRole('img', { name: 'Preview of the service image' })).toBeNull();
    fireEvent.change(field('Service Image (optional)'), { target: { files: [png()] } });
    const preview = (await screen.findByRole('img', { name: 'Preview of the service image' })) as HTMLImageElement;
    expect(preview.src).toMatch(/^blob:/);
    expect(screen.getByText('shot.png')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove image' }));
    expect(screen.queryByRole('img', { name: 'Preview of the service image' })).toBeNull();
    expect(field('Service Image (optional)').files?.length ?? 0).toBe(0);
  });

  it('sets what the service delivers, automatic delivery and its low-stock threshold, as the edit modal does (decision 245)', async () => {
    renderForm();
    expect(field('Delivers').value).toBe('account');
    type('Category', 'wise');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Deliver automatically from stock when the order is marked paid' }));
    type('Low-stock threshold for this service', '3');
    await fillAndSave('Wise Account Auto');
    expect(await screen.findByText('Service added successfully!', {}, SAVED_WITHIN)).toBeTruthy();
    expect(await serverService('Wise Account Auto')).toMatchObject({ category: 'wise', deliveryKind: 'account', autoDeliver: true, lowStockThreshold: 3 });
  });

  it('refuses automatic delivery for a new service that delivers lines, under the field to change, and saves nothing', async () => {
    renderForm();
    type('Delivers', 'lines');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Deliver automatically from stock when the order is marked paid' }));
    await fillAndSave('Proxy Lines Auto');
    expect(screen.getByText(/^Automatic delivery takes items from stock/)).toBeTruthy();
    expect(field('Delivers').getAttribute('aria-invalid')).toBe('true');
    expect(await serverService('Proxy Lines Auto')).toBeUndefined();
  });

  it("shows 'Error: {message}' when the server refuses the save, keeping what was typed", async () => {
    await signInAs(api, 'moderator');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderForm();
    await fillAndSave('Refused Statement');
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toMatch(/^Error: .+/);
    expect(field('Service Title').value).toBe('Refused Statement');
    expect(await serverService('Refused Statement')).toBeUndefined();
  });
});
