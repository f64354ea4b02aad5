/**
 * The shop's fixed lists (spec section 3): service categories, payment method ids and delivery time ids,
 * with the names people read. Ids not listed (older data, free text) are shown as they are.
 */

const nameIn = (names: Readonly<Record<string, string>>, id: string): string => (Object.hasOwn(names, id) ? names[id]! : id);

export const serviceCategoryIds = ['documents', 'editableFile', 'wise', 'vps'] as const;

const categoryNames: Readonly<Record<string, string>> = { documents: 'Documents', editableFile: 'Editable File', wise: 'Wise', vps: 'VPS' };

/** A category as the dashboard names it (the storefront's tabs capitalise the id instead, as the spec says). */
export const categoryName = (id: string): string => nameIn(categoryNames, id);

/** The payment methods a service may accept. */
export const paymentMethodIds = ['binance', 'bkash', 'nagad', 'upay', 'roket', 'wise', 'payoneer', 'remitly', 'ach', 'xoom'] as const;

const paymentMethodNames: Readonly<Record<string, string>> = {
  binance: 'Binance',
  bkash: 'bKash',
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
