/**
 * Every kind of delivery (issue 16 item 4, decision 069): what a service delivers, and the rules for a
 * file, a server login and a list of lines. An account is the Wise fields as before.
 */
import * as z from 'zod';
import { oneOf, requiredText, text, wisePassword } from './fields.ts';
import { parseBlobRef } from './uploads.ts';

export type DeliveryKind = 'account' | 'file' | 'server' | 'lines';
export type OtherDeliveryKind = Exclude<DeliveryKind, 'account'>;
export const deliveryKinds: readonly DeliveryKind[] = ['account', 'file', 'server', 'lines'];
export const deliveryKindLabels: Record<DeliveryKind, string> = {
  account: 'An account (email, password, optional image)',
  file: 'A file (a finished document)',
  server: 'A server login (host, port, user, password)',
  lines: 'A list of lines (proxies, keys...)',
};
export const deliveryKindSchema = oneOf(deliveryKinds);

export { deliveredSecretFields } from './delivered-secrets.ts';

/** What may be shown of a delivery other than an account (orders.delivery_details). */
export type DeliveryDetails =
  { kind: 'server'; host: string; port: number; user: string } | { kind: 'file'; path: string; name: string; size: number } | { kind: 'lines'; count: number };

/** The most lines one delivery holds, and the longest line. */
export const DELIVERY_LINES_MAX = 500;
export const DELIVERY_LINE_MAX = 300;
/** The largest delivered file, in MB (POST /api/uploads kind `delivery`). */
export const DELIVERY_FILE_MAX_MEGABYTES = 20;
export const DELIVERY_FILE_NAME_MAX = 200;

/** A host name or an IPv4/IPv6 address, without a scheme or a path. */
const hostPattern =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[?[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*\]?)$/;

export const serverLogin = z
  .object({
    host: requiredText(253).regex(hostPattern, 'must be a host name or an IP address, without http:// or a path'),
    port: z
      .number({ error: 'must be a whole number from 1 to 65535' })
      .int('must be a whole number from 1 to 65535')
      .min(1, 'must be a whole number from 1 to 65535')
      .max(65535, 'must be a whole number from 1 to 65535'),
    user: requiredText(200).regex(/^\S+$/, 'must not contain spaces'),
    password: wisePassword,
  })
  .strict();
export type ServerLogin = z.infer<typeof serverLogin>;

/** Lines as typed or pasted: each trimmed, blank ones dropped; at least one, at most DELIVERY_LINES_MAX. */
export const deliveryLines = z
  .array(
    z
      .string({ error: 'must be text' })
      .max(DELIVERY_LINE_MAX, `each line must be at most ${DELIVERY_LINE_MAX} characters`)
      .regex(/^[^\r\n]*$/, 'each entry must be one line'),
    { error: 'must be a list of lines' },
  )
  .max(DELIVERY_LINES_MAX, `must have at most ${DELIVERY_LINES_MAX} lines`)
  .transform((lines) => lines.map((line) => line.trim()).filter((line) => line !== ''))
  .refine((lines) => lines.length > 0, 'must have at least one line that is not blank');

/** Pasted text as lines, the way the delivery form sends it. */
export const splitLines = (value: string): string[] =>
  value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** A file uploaded with POST /api/uploads kind `delivery`: its private path, the name the customer gets, its size. */
export const deliveryFile = z
  .object({
    path: text(500).refine((value) => /^order-proofs\/deliveries\//.test(value) && parseBlobRef(value) !== null, 'must be a file uploaded with kind delivery'),
    // eslint-disable-next-line no-control-regex -- control characters are what a file name must not hold
    name: requiredText(DELIVERY_FILE_NAME_MAX).regex(/^[^/\\\u0000-\u001f]+$/, 'must be a file name without slashes'),
    /** The server reads the stored file's size itself; a size sent is ignored. */
    size: z
      .number()
      .int()
      .min(1)
      .max(DELIVERY_FILE_MAX_MEGABYTES * 1024 * 1024)
      .optional(),
  })
  .strict();
export type DeliveryFile = z.infer<typeof deliveryFile>;

/** A file name safe to send in Content-Disposition (the UTF-8 form carries the real one). */
export const asciiFileName = (name: string) => name.replace(/[^\x20-\x7E]|["\\]/g, '_');

const fileTypes: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  odt: 'application/vnd.oasis.opendocument.text',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  zip: 'application/zip',
};

/** The type a delivered file is served as, from its name's extension; anything else is plain bytes. */
export const fileContentType = (name: string) => fileTypes[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';

/** A file's size for people: 512 B, 12.3 KB, 4.5 MB. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
