import { createContext, useContext, useEffect } from 'react';
import { useSettings } from '../db/device-hooks.ts';

/**
 * Where the server render (pwa/src/server-render.tsx) hears a page's title, to put it into the page's
 * `<title>` (decision 070): the page is titled before its script has run. Absent in the browser.
 */
export const PageTitleSink = createContext<((title: string) => void) | null>(null);

/**
 * The window's title for this page, "{page} · {shop}": every page says what it is in the tab, in the
 * history list and to a screen reader arriving on it. Without a page name the shop's name and tagline.
 */
export function usePageTitle(page: string | null): void {
  const { brandName } = useSettings();
  const title = page ? `${page} · ${brandName}` : `${brandName} · Digital services, delivered fast`;
  useContext(PageTitleSink)?.(title);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
