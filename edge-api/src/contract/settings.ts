import type { DisplayCurrency } from './currencies.ts';

/** Everything the spec leaves as `{phone}` or a link; editable by an admin. */
export interface SiteSettings {
  brandName: string;
  contactChatUrl: string;
  providerChatUrl: string;
  telegramBotUrl: string;
  salesHandle: string;
  supportEmail: string;
  supportPhone: string;
  address: string;
  socialLinks: { facebook: string; twitter: string; instagram: string; linkedin: string; telegram: string; whatsapp: string };
  wallets: { name: string; number: string }[];
  /** Staff are warned when fewer Wise stock accounts than this are available; 0: never (decision 061). */
  lowStockThreshold?: number;
  /** Per payment method, what a customer who chose it is shown until the order is paid (issue 17). */
  paymentInstructions?: PaymentInstructions[];
  /** A signed-out visitor may order with just an email (decision 177); off unless an admin turns it on. */
  guestCheckout?: boolean;
  /** Currencies a customer may see prices in, approximately, with the admin's rates (decision 233). */
  displayCurrencies?: DisplayCurrency[];
}

/** How to pay with one method: where to send, to whom, an optional QR image and a line of instructions. */
export interface PaymentInstructions {
  /** A payment method id (bkash, binance, ...), as services list them. */
  method: string;
  /** The wallet number, address or account number to pay to. */
  address: string;
  accountName: string;
  /** '' or an image address (an uploaded picture or an http(s) URL). */
  qrImage: string;
  instructions: string;
}

/** The most payment methods the instructions cover. */
export const MAX_PAYMENT_INSTRUCTIONS = 20;

/** The instructions for `method` (ids compare without case), if staff wrote any. */
export const instructionsFor = (settings: Pick<SiteSettings, 'paymentInstructions'>, method: string | null | undefined) =>
  method ? settings.paymentInstructions?.find((entry) => entry.method.toLowerCase() === method.toLowerCase()) : undefined;

/** The most wallets the settings hold. */
export const MAX_WALLETS = 10;

/** Neutral demo values: what a fresh shop shows until an admin fills in its own links and numbers. */
export const defaultSettings: SiteSettings = {
  brandName: 'Digital Services Hub',
  contactChatUrl: 'https://t.me/your_support',
  providerChatUrl: 'https://t.me/your_sales',
  telegramBotUrl: 'https://t.me/your_proxy_bot',
  salesHandle: '@your_sales',
  supportEmail: 'support@example.com',
  supportPhone: '+880 1XXX-XXXXXX',
  address: '123 Example Street, Your City',
  socialLinks: {
    facebook: 'https://facebook.com/your_page',
    twitter: 'https://x.com/your_handle',
    instagram: 'https://instagram.com/your_handle',
    linkedin: 'https://linkedin.com/company/your_company',
    telegram: 'https://t.me/your_channel',
    whatsapp: 'https://wa.me/8801XXXXXXXXX',
  },
  wallets: [
    { name: 'bKash', number: '01XXXXXXXXX' },
    { name: 'Nagad', number: '01XXXXXXXXX' },
    { name: 'Rocket', number: '01XXXXXXXXX' },
  ],
  lowStockThreshold: 0,
  paymentInstructions: [],
  guestCheckout: false,
  displayCurrencies: [],
};

/** Stored settings over the defaults, so a field added later (or never synced) still reads something sensible. */
export function withDefaultSettings(stored: Partial<SiteSettings> | null | undefined): SiteSettings {
  const value = stored ?? {};
  return {
    ...defaultSettings,
    ...value,
    socialLinks: { ...defaultSettings.socialLinks, ...value.socialLinks },
    wallets: Array.isArray(value.wallets) ? value.wallets : defaultSettings.wallets,
    paymentInstructions: Array.isArray(value.paymentInstructions) ? value.paymentInstructions : [],
    displayCurrencies: Array.isArray(value.displayCurrencies) ? value.displayCurrencies : [],
  };
}
