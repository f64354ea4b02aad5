import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Service } from '../../../../edge-api/src/contract/services.ts';
import { getPublicDb } from '../../db/local-db.ts';
import { ServicesPage } from './services-page.tsx';

let serial = 0;
function service(fields: Partial<Service> & Pick<Service, 'title' | 'category'>): Service {
  serial += 1;
  return {
    id: `00000000-0000-4000-8000-${String(serial).padStart(12, '0')}`,
    description: 'A service',
    features: [],
    popular: false,
    image: '',
    price: '10',
    deliveryTime: 'instant',
    paymentMethods: [],
    createdAt: new Date(Date.UTC(2026, 0, serial)).toISOString(),
    updatedAt: new Date(Date.UTC(2026, 0, serial)).toISOString(),
    version: serial,
    ...fields,
  };
}

const wiseUk = service({
  title: 'UK Wise Account',
  category: 'wise',
  description: 'Verified personal account with card',
  features: ['Full KYC', 'Debit card', 'Lifetime support'],
  price: '45',
  image: 'https://img.example/wise-uk.png',
});
const wiseUs = service({ title: 'US Wise Account', category: 'wise', description: 'Business account, ready for payouts' });
const vps = service({ title: 'Windows VPS', category: 'vps', description: 'Fast server with a residential proxy included' });
const files = service({ title: 'Bank Statement Template', category: 'editableFile', description: 'Editable PSD file' });

function renderListing() {
  return render(
    <MemoryRouter>
      <ServicesPage />
    </MemoryRouter>,
  );
}

const cardTitles = () => screen.queryAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
const tab = (name: RegExp) => within(screen.getByRole('group', { name: 'Categories' })).getByRole('link', { name });

beforeEach(async () => {
  await getPublicDb().services.bulkPut([wiseUk, wiseUs, vps, files]);
});

afterEach(async () => {
  cleanup();
  await getPublicDb().services.clear();
});

describe('services listing', () => {
  it('shows every stored service as a card with all its parts', async () => {
    renderListing();
    expect(await screen.findByRole('heading', { level: 1, name: 'Explore Premium Services' })).toBeTruthy();
    await screen.findByRole('heading', { name: 'UK Wise Account' });
    expect(cardTitles()).toHaveLength(4);

    const card = screen.getByRole('heading', { name: 'UK Wise Account' }).closest('article')!;
    const inCard = within(card as HTMLElement);
    expect(inCard.getByRole('img', { name: 'UK Wise Account' }).getAttribute('src')).toBe('https://img.example/wise-uk.png');
    expect(inCard.queryByText('PREMIUM')).toBeNull();
    expect(inCard.getByText('Wise')).toBeTruthy();
    expect(inCard.getByText('Verified personal account with card')).toBeTruthy();
    expect(inCard.getByText('Full KYC')).toBeTruthy();
    expect(inCard.getByText('Debit card')).toBeTruthy();
    expect(inCard.queryByText('Lifetime support')).toBeNull();
    expect(card.textContent).toContain('$45 USD');
    expect(inCard.getByRole('link', { name: /View Details/ }).getAttribute('href')).toBe(`/service-details/${wiseUk.id}`);
  });

  it('has a tab per category found, capitalised, after All Services, each with its count', async () => {
    renderListing();
    await screen.findByRole('heading', { name: 'UK Wise Account' });
    const tabs = within(screen.getByRole('group', { name: 'Categories' }))
      .getAllByRole('link')
      .map((button) => button.textContent);
    expect(tabs).toEqual(['All Services 4', 'Editable Files 1', 'VPS 1', 'Wise 2']);
  });

  it('marks the popular services PREMIUM, and only them', async () => {
    await getPublicDb().services.put({ ...wiseUs, popular: true });
    renderListing();
    await screen.findByRole('heading', { name: 'UK Wise Account' });
    const premium = screen.getAllByText('PREMIUM').map((badge) => badge.closest('article')?.querySelector('h2')?.textContent);
    expect(premium).toEqual(['US Wise Account']);
  });

  it('makes one tab of a category spelled several ways, named once', async () => {
    await getPublicDb().services.bulkPut([service({ title: 'Old VPS', category: 'Vps' }), service({ title: 'Old Template', category: 'EditableFile' })]);
    renderListing();
    await screen.findByRole('heading', { name: 'Old VPS' });
    const tabs = within(screen.getByRole('group', { name: 'Categories' }))
      .getAllByRole('link')
      .map((button) => button.textContent);
    expect(tabs).toEqual(['All Services 6', 'Editable Files 2', 'VPS 2', 'Wise 2']);
    fireEvent.click(tab(/^VPS/));
    expect(cardTitles().sort()).toEqual(['Old VPS', 'Windows VPS']);
    expect(screen.getAllByText('VPS', { selector: 'article p' })).toHaveLength(2);
  });

  it("opens on the tab its address names, as the menu's Services › Wise does", async () => {
    render(
      <MemoryRouter initialEntries={['/services?category=wise']}>
        <ServicesPage />
      </MemoryRouter>,
    );
    await screen.findByRole('heading', { name: 'UK Wise Account' });
    expect(tab(/^Wise/).getAttribute('aria-current')).toBe('true');
    expect(cardTitles().sort()).toEqual(['UK Wise Account', 'US Wise Account']);
  });

  it('shows only the chosen category', async () => {
    renderListing();
    await screen.findByRole('heading', { name: 'UK Wise Account' });
    fireEvent.click(tab(/^Wise/));
    expect(tab(/^Wise/).getAttribute('aria-current')).toBe('true');
    expect(tab(/^All Services/).getAttribute('aria-current')).toBeNull();
    expect(cardTitles().sort()).toEqual(['UK Wise Account', 'US Wise Account']);
    fireEvent.click(tab(/^All Services/));
    expect(cardTitles()).toHaveLength(4);
  });

  it('searches titles and descriptions case-insensitively and counts the results', async () => {
    renderListing();
    await screen.findByRole('heading', { name: 'UK Wise Account' });
    expect(screen.queryByPlaceholderText('Search services...')?.closest('[hidden]')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    const input = screen.getByPlaceholderText('Search services...');
    fireEvent.change(input, { target: { value: 'PROXY' } });
    expect(cardTitles()).toEqual(['Windows VPS']);
    expect(screen.getByText('1 result for "PROXY"')).toBeTruthy();

    fireEvent.change(input, { target: { value: 'wise account' } });
    expect(cardTitles().sort()).toEqual(['UK Wise Account', 'US Wise Account']);
    expect(screen.getByText('2 results for "wise account"')).toBeTruthy();
  });

  it('combines search and category, and says so when nothing matches', async () => {
    renderListing();
    await screen.findByRole('heading', { name: 'UK Wise Account' });
    fireEvent.click(tab(/^VPS/));
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    fireEvent.change(screen.getByPlaceholderText('Search services...'), { target: { value: 'account' } });
    expect(screen.getByRole('heading', { name: 'No Services Found' })).toBeTruthy();
    expect(screen.getByText('Try adjusting your search or filters.')).toBeTruthy();
    expect(screen.getByText('0 results for "account"')).toBeTruthy();
  });

  it('closing the search clears it', async () => {
    renderListing();
    await screen.findByRole('heading', { name: 'UK Wise Account' });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    fireEvent.change(screen.getByPlaceholderText('Search services...'), { target: { value: 'vps' } });
    expect(cardTitles()).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Close Search' }));
    expect(cardTitles()).toHaveLength(4);
  });

  it('shows new services as soon as they reach the local database', async () => {
    renderListing();
    await screen.findByRole('heading', { name: 'UK Wise Account' });
    await getPublicDb().services.put(service({ title: 'Linux VPS', category: 'vps' }));
    expect(await screen.findByRole('heading', { name: 'Linux VPS' })).toBeTruthy();
    expect(tab(/^VPS/).textContent).toBe('VPS 2');
  });

  it('is loading, not empty, while nothing is stored and the first sync has not finished', async () => {
    await getPublicDb().services.clear();
    renderListing();
    expect(await screen.findByText('Loading Services...')).toBeTruthy();
    expect(screen.queryByText('No Services Found')).toBeNull();
  });
});
