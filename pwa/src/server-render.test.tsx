import { cleanup, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../edge-api/src/contract/settings.ts';
import { PublicLayout } from './app/public-layout.tsx';
import { ConfirmProvider } from './components/confirm-dialog.tsx';
import { ToastProvider } from './components/toast.tsx';
import { AuthContext } from './lib/auth.tsx';
import { renderPublicPage } from './server-render.tsx';

afterEach(cleanup);

const template = '<!doctype html><html><head><title>Shop</title></head><body><div id="root"></div></body></html>';

/** The href of the main navigation's Login link in the server's HTML for `url` (path and query, as the Node entry passes it). */
function serverLoginHref(url: string): string | null {
  const html = renderPublicPage(template, url, { settings: defaultSettings, services: [] });
  const page = new DOMParser().parseFromString(html ?? '', 'text/html');
  const login = [...page.querySelectorAll('nav[aria-label="Main"] a')].find((link) => link.textContent?.trim() === 'Login');
  return login?.getAttribute('href') ?? null;
}

/** The same link as the app renders it, signed out, when it takes the page over at `url`. */
async function clientLoginHref(url: string): Promise<string | null> {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <PublicLayout />,
        children: [
          { index: true, element: <h1>Page</h1> },
          { path: '*', element: <h1>Page</h1> },
        ],
      },
    ],
    { initialEntries: [url] },
  );
  render(
    <AuthContext value={{ status: 'signedOut' }}>
      <ToastProvider>
        <ConfirmProvider>
          <RouterProvider router={router} />
        </ConfirmProvider>
      </ToastProvider>
    </AuthContext>,
  );
  await screen.findByRole('heading', { name: 'Page' });
  const href = within(screen.getByRole('navigation', { name: 'Main' }))
    .getByRole('link', { name: 'Login' })
    .getAttribute('href');
  cleanup();
  return href;
}

describe('renderPublicPage', () => {
  it.each([
    ['/services', '/login?next=%2Fservices'],
    ['/services?category=wise', '/login?next=%2Fservices%3Fcategory%3Dwise'],
    ['/Proxy', '/login?next=%2FProxy'],
    ['/', '/login'],
  ])('renders the Login link of %s with the return address, exactly as the app renders it (no hydration mismatch)', async (url, href) => {
    expect(serverLoginHref(url)).toBe(href);
    expect(await clientLoginHref(url)).toBe(href);
  });

  it.each(['/contact', '/proxy', '/'])('every new-tab link in the server HTML of %s says so (the client renders the same ExternalLink)', (url) => {
    const html = renderPublicPage(template, url, { settings: defaultSettings, services: [] });
    const page = new DOMParser().parseFromString(html ?? '', 'text/html');
    const links = [...page.querySelectorAll('a[target="_blank"]')];
    // The header's Contact Us and social icons at least, plus the page's own.
    expect(links.length).toBeGreaterThan(1);
    for (const link of links) {
      expect(link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(link.querySelector('.sr-only:last-child')?.textContent).toBe(' (opens in a new tab)');
    }
  });
});
