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
  /** Days after delivery in which a customer may report a problem and get a replacement; 0: no warranty. */
  warrantyDays?: number;
}

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
