import * as z from 'zod';
import { requiredText } from './fields.ts';
import { DEVICE_ID_MAX, DEVICE_LABEL_MAX } from './order-requests.ts';

export const PUSH_ENDPOINT_MAX = 2048;
const base64Url = (bytes: number, what: string) =>
  z
    .string({ error: 'is required' })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'must be base64url')
    .refine((value) => Math.floor((value.replace(/=+$/, '').length * 3) / 4) === bytes, `must be ${what} (${bytes} bytes)`);

const endpoint = z
  .string({ error: 'is required' })
  .max(PUSH_ENDPOINT_MAX, `must be at most ${PUSH_ENDPOINT_MAX} characters`)
  .pipe(z.url({ protocol: /^https?$/, error: 'must be the push service address of the subscription' }));

/** POST /api/push/subscriptions: PushSubscription.toJSON() of this device, and the device (decision 067). */
export const pushSubscribeBody = z
  .object({
    endpoint,
    expirationTime: z.number().nullable().optional(),
    keys: z.object({ p256dh: base64Url(65, 'a P-256 public key'), auth: base64Url(16, 'an authentication secret') }).strict(),
    deviceId: requiredText(DEVICE_ID_MAX).regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, - or _'),
    deviceLabel: requiredText(DEVICE_LABEL_MAX),
  })
  .strict();

/** DELETE /api/push/subscriptions: this device stops receiving (the switch turned off, or a sign-out). */
export const pushUnsubscribeBody = z.object({ endpoint }).strict();

/** POST /api/push/subscriptions/others: after "sign out other devices", every subscription of the caller but this device's goes. */
export const pushKeepOnlyBody = z.object({ keep: endpoint.nullable() }).strict();
