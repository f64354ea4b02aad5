import * as z from 'zod';
import { displayCurrencies } from './currencies.ts';
import { EMAIL_MAX, emailText, IMAGE_ADDRESS_MAX, requiredText, text } from './fields.ts';
import { lowStockThreshold } from './service-requests.ts';
import { isImageAddress } from './services.ts';
import { MAX_PAYMENT_INSTRUCTIONS, MAX_WALLETS, type SiteSettings } from './settings.ts';

const linkProtocols = new Set(['https:', 'http:', 'tg:', 'whatsapp:', 'mailto:', 'tel:']);
const linkMessage = 'must be a link starting with https://, http://, tg://, whatsapp://, mailto: or tel:';

const isLink = (value: string) => {
  try {
    return linkProtocols.has(new URL(value).protocol);
  } catch {
    return false;
  }
};

const link = requiredText(500).refine(isLink, { message: linkMessage });
/** Social links may be left empty: the page then shows the button without a target. */
const optionalLink = text(500).refine((value) => value === '' || isLink(value), { message: linkMessage });

/** PUT /api/settings: the whole settings object. */
export const settingsBody = z.object({
  brandName: requiredText(80),
  contactChatUrl: link,
  providerChatUrl: link,
  telegramBotUrl: link,
  salesHandle: text(80),
  supportEmail: text(EMAIL_MAX).refine((value) => value === '' || emailText.safeParse(value).success, { message: 'must be an email address' }),
  supportPhone: text(40).regex(/^[0-9X+()\-\s]*$/, 'may hold only digits, spaces, +, -, ( ) and X'),
  address: text(300),
  socialLinks: z.object({
    facebook: optionalLink,
    twitter: optionalLink,
    instagram: optionalLink,
    linkedin: optionalLink,
    telegram: optionalLink,
    whatsapp: optionalLink,
  }),
  wallets: z.array(z.object({ name: requiredText(40), number: requiredText(40) })).max(MAX_WALLETS, `must have at most ${MAX_WALLETS} entries`),
  lowStockThreshold: lowStockThreshold.optional(),
  paymentInstructions: z
    .array(
      z.object({
        method: requiredText(40),
        address: requiredText(200),
        accountName: text(100),
        qrImage: text(IMAGE_ADDRESS_MAX).refine((value) => value === '' || isImageAddress(value), { message: 'must be an uploaded picture or an http(s) URL' }),
        instructions: text(500),
      }),
    )
    .max(MAX_PAYMENT_INSTRUCTIONS, `must have at most ${MAX_PAYMENT_INSTRUCTIONS} entries`)
    .refine((list) => new Set(list.map((entry) => entry.method.toLowerCase())).size === list.length, { message: 'must name each payment method once' })
    .optional(),
  guestCheckout: z.boolean().optional(),
  /** Currencies a customer may see prices in, with the admin's rates (decision 233). */
  displayCurrencies: displayCurrencies.optional(),
}) satisfies z.ZodType<SiteSettings>;
