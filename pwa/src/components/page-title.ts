import { useEffect } from 'react';
import { useSettings } from '../db/device-hooks.ts';

/**
 * The window's title for this page, "{page} · {shop}": every page says what it is in the tab, in the
 * history list and to a screen reader arriving on it. Without a page name the shop's name and tagline.
 */
export function usePageTitle(page: string | null): void {
  const { brandName } = useSettings();
  useEffect(() => {
    document.title = page ? `${page} · ${brandName}` : `${brandName} · Digital services, delivered fast`;
  }, [page, brandName]);
}
