import type { StockImageField, WiseStock } from '../../../../edge-api/src/contract/wise-stocks.ts';
import { saveBlobAs } from '../../lib/save-file.ts';

export const stockImageSlots: { field: StockImageField; label: string }[] = [
  { field: 'authImage', label: 'Authentication Image' },
  { field: 'docImg1', label: 'Document 1' },
  { field: 'docImg2', label: 'Document 2' },
];

export const IMAGE_UPDATED_MESSAGE = 'Image updated successfully';
export const IMAGE_UPDATE_FAILED_MESSAGE = 'Failed to update image';
export const DOWNLOAD_STARTED_MESSAGE = 'Image download started';
export const DOWNLOAD_FAILED_MESSAGE = 'Failed to download image';

const extensions: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif', 'image/svg+xml': 'svg' };

/**
 * Spec: a download saves as '{label}_{timestamp}.jpg'. That stays for a JPEG (and anything unnamed); a PNG,
 * WEBP, GIF (or the demo data's SVG) gets its own extension, so the file opens as what it is (decision 035).
 */
export function downloadFileName(label: string, timestamp: number = Date.now(), type = ''): string {
  const mime = type.split(';')[0]!.trim().toLowerCase();
  const extension = Object.hasOwn(extensions, mime) ? extensions[mime]! : 'jpg';
  return `${label.trim().replace(/\s+/g, '_')}_${timestamp}.${extension}`;
}

export const hasAnyImage = (stock: Pick<WiseStock, StockImageField>): boolean => stockImageSlots.some((slot) => stock[slot.field] !== '');

/** The PUT body replacing one image (spec: one image field plus updatedAt; the server keeps its own clock). */
export function imageUpdateBody(field: StockImageField, path: string, now: Date = new Date()) {
  const updatedAt = now.toISOString();
  switch (field) {
    case 'authImage':
      return { authImage: path, updatedAt };
    case 'docImg1':
      return { docImg1: path, updatedAt };
    case 'docImg2':
      return { docImg2: path, updatedAt };
  }
}

/** Fetches the image and saves it under the spec's file name, with the extension of what it is. */
export async function downloadImage(url: string, label: string): Promise<void> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`Download failed (${response.status})`);
  const blob = await response.blob();
  saveBlobAs(blob, downloadFileName(label, Date.now(), blob.type || response.headers.get('content-type') || ''));
}
