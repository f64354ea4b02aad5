/**
 * The shop's fixed lists (spec section 3): service categories, payment method ids and delivery time ids,
 * with the names people read. Ids not listed (older data, free text) are shown as they are.
 */

const nameIn = (names: Readonly<Record<string, string>>, id: string): string => (Object.hasOwn(names, id) ? names[id]! : id);

export const serviceCategoryIds = ['documents', 'editableFile', 'wise', 'vps'] as const;

/** One name per category, used by every screen (decision 035): human words, capitalised as the spec's tabs are. */
const categoryLabels: Readonly<Record<string, string>> = { documents: 'Documents', editableFile: 'Editable Files', wise: 'Wise', vps: 'VPS' };

/** Letters and digits only, lower case: 'EditableFile', 'editable_file' and 'editable file' read alike. */
const squashed = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
const knownBySquashed = new Map(serviceCategoryIds.map((id) => [squashed(id), id]));

/**
 * The id a category is known by: a listed one whatever its spelling in older data ('EditableFile', 'Vps',
 * 'editable-file'), anything else as typed, trimmed. The listing's tabs and the filters group by it.
 */
export function categoryKey(category: string): string {
  const trimmed = category.trim();
  return knownBySquashed.get(squashed(trimmed)) ?? trimmed;
}

/** A category as people read it: the listed ones by name; any other split into capitalised words ('giftCard' → 'Gift Card'). */
export function categoryLabel(category: string): string {
  const key = categoryKey(category);
  if (Object.hasOwn(categoryLabels, key)) return categoryLabels[key]!;
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** The payment methods a service may accept. */
export const paymentMethodIds = ['binance', 'bkash', 'usdt', 'nagad', 'upay', 'roket', 'wise', 'payoneer', 'remitly', 'ach', 'xoom'] as const;

const paymentMethodNames: Readonly<Record<string, string>> = {
  binance: 'Binance',
  bkash: 'bKash',
  usdt: 'USDT (TRC20)',
  nagad: 'Nagad',
  upay: 'Upay',
  roket: 'Rocket',
  wise: 'Wise',
  payoneer: 'Payoneer',
  remitly: 'Remitly',
  ach: 'ACH Transfer',
  xoom: 'Xoom',
  // Not offered for new services, but they have symbols (spec), so older data may name them.
  paypal: 'PayPal',
  stripe: 'Stripe',
  bank: 'Bank Transfer',
};

/** Ids are matched whatever their case. */
export function paymentMethodName(id: string): string {
  const key = id.toLowerCase();
  return Object.hasOwn(paymentMethodNames, key) ? paymentMethodNames[key]! : id;
}

export const deliveryTimeIds = ['instant', '1hour', '3hours', '6hours', '12hours', '24hours', '48hours'] as const;

const deliveryTimeLabels: Readonly<Record<string, string>> = {
  instant: 'Instant Delivery',
  '1hour': '1 Hour',
  '3hours': '3 Hours',
  '6hours': '6 Hours',
  '12hours': '12 Hours',
  '24hours': '24 Hours',
  '48hours': '48 Hours',
};

/** Delivery time ids as people read them; free text an admin typed is shown as typed. */
export function deliveryTimeLabel(deliveryTime: string | null | undefined): string {
  return deliveryTime ? nameIn(deliveryTimeLabels, deliveryTime) : '';
}
