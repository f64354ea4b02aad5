import { MAX_WALLETS, type SiteSettings } from '../../../../edge-api/src/contract/settings.ts';
import type { FieldProblems } from '../../lib/form-problems.ts';

export type SocialKey = keyof SiteSettings['socialLinks'];
export type TextKey = Exclude<
  keyof SiteSettings,
  'socialLinks' | 'wallets' | 'lowStockThreshold' | 'paymentInstructions' | 'guestCheckout' | 'displayCurrencies'
>;

export interface TextField {
  key: TextKey;
  label: string;
  type: 'text' | 'url' | 'email' | 'tel';
  hint?: string;
}

export const fieldGroups: { title: string; fields: TextField[] }[] = [
  { title: 'Brand', fields: [{ key: 'brandName', label: 'Brand name', type: 'text', hint: 'Shown in the navigation bar and the dashboard.' }] },
  {
    title: 'Chat and bot links',
    fields: [
      { key: 'contactChatUrl', label: 'Contact chat link', type: 'url', hint: 'Opened by the Contact Us button.' },
      { key: 'providerChatUrl', label: 'Provider chat link', type: 'url', hint: 'Opened by Contact Provider and Complete Payment.' },
      { key: 'telegramBotUrl', label: 'Proxy bot link', type: 'url', hint: 'Opened by the proxy page buttons.' },
      { key: 'salesHandle', label: 'Sales contact handle', type: 'text', hint: 'e.g. @your_sales' },
    ],
  },
  {
    title: 'Support contact',
    fields: [
      { key: 'supportEmail', label: 'Support email', type: 'email' },
      { key: 'supportPhone', label: 'Support phone', type: 'tel' },
      { key: 'address', label: 'Address', type: 'text' },
    ],
  },
];

export const socialFields: { key: SocialKey; label: string }[] = [
  { key: 'facebook', label: 'Facebook link' },
  { key: 'twitter', label: 'Twitter link' },
  { key: 'instagram', label: 'Instagram link' },
  { key: 'linkedin', label: 'LinkedIn link' },
  { key: 'telegram', label: 'Telegram link' },
  { key: 'whatsapp', label: 'WhatsApp link' },
];

export const setText = (settings: SiteSettings, key: TextKey, value: string): SiteSettings => ({ ...settings, [key]: value });

export const setSocial = (settings: SiteSettings, key: SocialKey, value: string): SiteSettings => ({
  ...settings,
  socialLinks: { ...settings.socialLinks, [key]: value },
});

export const setWallet = (settings: SiteSettings, index: number, part: 'name' | 'number', value: string): SiteSettings => ({
  ...settings,
  wallets: settings.wallets.map((wallet, i) => (i === index ? { ...wallet, [part]: value } : wallet)),
});

export const addWallet = (settings: SiteSettings): SiteSettings =>
  settings.wallets.length >= MAX_WALLETS ? settings : { ...settings, wallets: [...settings.wallets, { name: '', number: '' }] };

export const removeWallet = (settings: SiteSettings, index: number): SiteSettings => ({
  ...settings,
  wallets: settings.wallets.filter((_, i) => i !== index),
});

/** Errors of wallets after a removal move with their rows. */
export function shiftWalletErrors(errors: FieldProblems, removed: number): FieldProblems {
  const next: FieldProblems = {};
  for (const [path, message] of Object.entries(errors)) {
    const match = /^wallets\.(\d+)(\..*)?$/.exec(path);
    if (!match) next[path] = message;
    else {
      const index = Number(match[1]);
      if (index < removed) next[path] = message;
      else if (index > removed) next[`wallets.${index - 1}${match[2] ?? ''}`] = message;
    }
  }
  return next;
}
