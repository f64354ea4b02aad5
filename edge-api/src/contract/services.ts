import type { DeliveryKind } from './deliveries.ts';

/** A service's own fields: what an admin edits (POST and PUT /api/services). */
export interface ServiceFields {
  title: string;
  description: string;
  category: string;
  features: string[];
  popular: boolean;
  image: string;
  price: string;
  deliveryTime: string;
  paymentMethods: string[];
  /** Delivers an account from Wise stock by itself when an order is marked paid (decision 061). */
  autoDeliver?: boolean;
  /** Warn staff below this many available stock accounts; null: the shop's threshold (settings). */
  lowStockThreshold?: number | null;
  /** The order needs details from the customer (an editable document's data, say): the note is then required. */
  needsDetails?: boolean;
  /** What to write in that note, shown under it. */
  detailsHint?: string;
  /** Days after delivery in which a customer may report a problem and get a replacement; 0: no warranty. */
  warrantyDays?: number;
  /** What an order of it delivers (decision 069); 'account' (the Wise fields) when absent. */
  deliveryKind?: DeliveryKind;
}

/** The most a low-stock threshold may be. */
export const LOW_STOCK_THRESHOLD_MAX = 100_000;

export interface Service extends ServiceFields {
  id: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/**
 * A service picture's address: an absolute http(s) URL, or a path on this site (what the embedded server
 * answers for uploaded images, e.g. /files/service-images/x.png). Never an inline data: URL: every order
 * copies its service's picture, and every device syncs every order (decision 051); upload it instead.
 */
export function isImageAddress(value: string): boolean {
  const text = value.trim();
  if (/^\/(?!\/)\S*$/.test(text)) return true;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
