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
}

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
};

/** Stored settings over the defaults, so a field added later (or never synced) still reads something sensible. */
export function withDefaultSettings(stored: Partial<SiteSettings> | null | undefined): SiteSettings {
  const value = stored ?? {};
  return {
    ...defaultSettings,
    ...value,
    socialLinks: { ...defaultSettings.socialLinks, ...value.socialLinks },
    wallets: Array.isArray(value.wallets) ? value.wallets : defaultSettings.wallets,
  };
}
