import { createContext, useContext } from 'react';
import type { Service } from '../../../edge-api/src/contract/services.ts';
import type { SiteSettings } from '../../../edge-api/src/contract/settings.ts';

/**
 * The public rows a server-rendered page was rendered with (decision 053): the page's HTML shows them
 * before any JavaScript runs, and the app's first render uses the same rows, so taking over changes
 * nothing on screen. The device's own copy (Dexie) replaces them once it has been read.
 */
export interface PublicSnapshot {
  settings: SiteSettings;
  services: Service[];
}

export const PublicSnapshotContext = createContext<PublicSnapshot | null>(null);

export const usePublicSnapshot = () => useContext(PublicSnapshotContext);

/** The id of the `<script type="application/json">` the server puts the snapshot in. */
export const SNAPSHOT_ELEMENT_ID = 'public-snapshot';

/** The snapshot the server embedded in this page, or null (the app shell from the service worker, a client route). */
export function readEmbeddedSnapshot(): PublicSnapshot | null {
  const element = typeof document === 'undefined' ? null : document.getElementById(SNAPSHOT_ELEMENT_ID);
  if (!element?.textContent) return null;
  try {
    return JSON.parse(element.textContent) as PublicSnapshot;
  } catch {
    return null;
  }
}

/** The snapshot as page text: JSON that cannot end the script element it sits in. */
export function snapshotScript(snapshot: PublicSnapshot): string {
  const json = JSON.stringify(snapshot)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script id="${SNAPSHOT_ELEMENT_ID}" type="application/json">${json}</script>`;
}
