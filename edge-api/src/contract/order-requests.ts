import * as z from 'zod';
import { couponCode } from './coupons.ts';
import {
  blankAsMissing,
  emailText,
  EMAIL_MAX,
  expectedVersion,
  IMAGE_ADDRESS_MAX,
  oneOf,
  queryText,
  requiredText,
  text,
  uuid,
  WISE_PASSWORD_MAX,
  wisePassword,
} from './fields.ts';
import { orderAttentions } from './order-attention.ts';
import { orderPageSizes, orderStatuses, paymentStatuses, reportReasons } from './orders.ts';
import { isHttpUrl, parseBlobRef } from './uploads.ts';
import { deliveryFile, deliveryLines, serverLogin } from './deliveries.ts';

/** The longest note a customer may write to the shop. */
export const ORDER_NOTE_MAX = 2000;
/** The longest transaction id a payment proof takes. */
export const TRANSACTION_ID_MAX = 120;

/** POST /api/orders: only the id and the service are read; the copies, the customer and the statuses are the server's. */
export const placeOrderBody = z.object({
  id: uuid.optional(),
  productId: uuid,
  /** The customer's note to the shop: required when the service needs details. */
  note: text(ORDER_NOTE_MAX).optional(),
  /** One of the service's payment methods. */
  paymentMethod: text(40).optional(),
  /** A coupon the shop made (decision 220): the server prices the order with it, or refuses the order. */
  couponCode: couponCode.optional(),
  /** How many (decision 178): quantity tiers lower the unit price. */
  quantity: z
    .number({ message: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(10_000, 'must be at most 10000')
    .optional(),
});

/** A customer's payment screenshot: what POST /api/uploads answers for kind `payment`. */
export const paymentScreenshot = text(IMAGE_ADDRESS_MAX).refine((value) => value.startsWith('order-proofs/payments/') && parseBlobRef(value) !== null, {
  message: 'must be a payment screenshot uploaded with kind payment',
});

/** PUT /api/orders/{id}/payment-proof: a transaction id, a screenshot, or both. */
export const paymentProofBody = z
  .object({
    transactionId: text(TRANSACTION_ID_MAX)
      .regex(/^[\x21-\x7E]*$/, 'may hold only letters, digits and symbols, no spaces')
      .optional(),
    screenshot: paymentScreenshot.optional(),
  })
  .refine((body) => !!body.transactionId || !!body.screenshot, { path: ['transactionId'], message: 'send a transaction id, a screenshot or both' });

export const userIdParam = z.object({ userId: uuid });

/** Most orders one page of GET /api/orders/user/{id} holds. */
export const USER_ORDERS_PAGE_MAX = 500;
/** The orders a page of GET /api/orders/user/{id} holds without `limit`: never the whole history (decision 185). */
export const USER_ORDERS_PAGE_DEFAULT = 100;

/**
 * GET /api/orders/user/{id}: the newest `limit` orders (100 without it, at most 500) after `cursor`, and the
 * cursor of the next page in the `X-Next-Cursor` header while there is one.
 */
export const userOrdersQuery = z.object({
  limit: z.preprocess(
    blankAsMissing,
    z
      .string({ error: 'must be given once' })
      .regex(/^[1-9][0-9]{0,3}$/, 'must be a whole number of 1 or more')
      .transform(Number)
      .refine((n) => n <= USER_ORDERS_PAGE_MAX, `must be at most ${USER_ORDERS_PAGE_MAX}`)
      .optional(),
  ),
  cursor: z.preprocess(
    blankAsMissing,
    queryText(200)
      .regex(/^[A-Za-z0-9_-]+$/, 'must be a cursor this API answered')
      .optional(),
  ),
});

/** GET /api/admin/orders/export.csv, and the filter part of the list. */
export const adminOrderFilterQuery = z.object({
  status: z.preprocess(blankAsMissing, oneOf(orderStatuses).optional()),
  paymentStatus: z.preprocess(blankAsMissing, oneOf(paymentStatuses).optional()),
  search: queryText(200).optional(),
  /** open: the orders with a problem report waiting for staff (decision 063). */
  report: z.preprocess(blankAsMissing, z.enum(['open'], { error: 'must be open' }).optional()),
  /** The orders a bell item counts (decision 130): delivery or payment-check. */
  attention: z.preprocess(blankAsMissing, oneOf(orderAttentions).optional()),
});

const pageSizeText = orderPageSizes.map(String);

/** Deepest an offset page of GET /api/admin/orders may start: past it, pages go by cursor (decision 185). */
export const ADMIN_ORDER_OFFSET_MAX = 10_000;

/** GET /api/admin/orders */
export const adminOrderListQuery = adminOrderFilterQuery.extend({
  /** nextCursor or prevCursor of an answer: the page after or before it. `page` then only numbers the page. */
  cursor: z.preprocess(
    blankAsMissing,
    queryText(200)
      .regex(/^[A-Za-z0-9_-]+$/, 'must be a cursor this API answered')
      .optional(),
  ),
  page: z.preprocess(
    blankAsMissing,
    z
      .string({ error: 'must be given once' })
      .regex(/^[1-9][0-9]{0,8}$/, 'must be a whole number of 1 or more')
      .transform(Number)
      .optional(),
  ),
  limit: z.preprocess(
    blankAsMissing,
    z
      .enum(pageSizeText as [string, ...string[]], { error: `must be ${pageSizeText.slice(0, -1).join(', ')} or ${pageSizeText.at(-1)}` })
      .transform(Number)
      .optional(),
  ),
});

/** A proof image uploaded through POST /api/uploads (kind proof), or an external http(s) URL. */
export const proofImage = text(IMAGE_ADDRESS_MAX).refine((value) => value === '' || parseBlobRef(value)?.bucket === 'order-proofs' || isHttpUrl(value), {
  message: 'must be an uploaded proof image (order-proofs/...) or an http(s) URL',
});

/** The credentials typed in the delivery form: the form checks them with these before anything is queued. */
export const typedCredentials = z.object({ wiseEmail: emailText, wisePassword });

/**
 * PUT /api/admin/orders/{id}: a status, a payment status, or a delivery (typed credentials with an
 * optional proof image, or an inventory account by `stockId`), which makes the order paid and delivered.
 */
export const orderChangeBody = z
  .object({
    orderStatus: oneOf(orderStatuses).optional(),
    paymentStatus: oneOf(paymentStatuses).optional(),
    wiseEmail: emailText.optional(),
    wisePassword: wisePassword.optional(),
    wiseImage: proofImage.nullish(),
    stockId: uuid.optional(),
    /** An item of the order's service's own stock (decision 072), of any kind it keeps. */
    serviceStockId: uuid.optional(),
    /** A delivery of another kind than an account (decision 069): a server login, a list of lines, or an uploaded file. */
    server: serverLogin.optional(),
    lines: deliveryLines.optional(),
    file: deliveryFile.optional(),
    /** Deliver a server password or lines already delivered or in stock anyway (409 duplicate_credentials otherwise). */
    overrideDuplicates: z.literal(true).optional(),
    /** Replace credentials already delivered (a wrong account, say); without it a second delivery is refused. */
    replace: z.literal(true).optional(),
    /**
     * The values the change was made from, field by field (what the device showed). Sent instead of
     * `version`: a change to a field someone else changed meanwhile is a conflict; changes to different
     * fields of one order both land.
     */
    base: z
      .object({ orderStatus: oneOf(orderStatuses).optional(), paymentStatus: oneOf(paymentStatuses).optional() })
      .strict()
      .optional(),
    version: expectedVersion,
  })
  .superRefine((body, ctx) => {
    const typedAccount = body.wiseEmail !== undefined || body.wisePassword !== undefined || !!body.wiseImage;
    const others = (['server', 'lines', 'file'] as const).filter((kind) => body[kind] !== undefined);
    if (others.length > 1 || (others.length === 1 && (typedAccount || body.stockId))) {
      ctx.addIssue({
        code: 'custom',
        path: [others[others.length - 1] ?? 'server'],
        message: 'send one delivery at a time: an account, a stock, a server login, lines or a file',
      });
    }
    const typed = typedAccount || others.length > 0;
    if (body.serviceStockId && (typed || body.stockId)) {
      ctx.addIssue({ code: 'custom', path: ['serviceStockId'], message: 'send one delivery at a time: an account, a stock, a server login, lines or a file' });
    }
    if (body.stockId && typedAccount) {
      ctx.addIssue({ code: 'custom', path: ['stockId'], message: 'send either stockId or typed credentials, not both' });
    }
    if (typedAccount && !body.stockId) {
      if (body.wiseEmail === undefined) ctx.addIssue({ code: 'custom', path: ['wiseEmail'], message: 'is required with wisePassword' });
      if (body.wisePassword === undefined) ctx.addIssue({ code: 'custom', path: ['wisePassword'], message: 'is required with wiseEmail' });
    }
    if (typed || body.stockId || body.serviceStockId) {
      if (body.paymentStatus !== undefined && body.paymentStatus !== 'paid') {
        ctx.addIssue({ code: 'custom', path: ['paymentStatus'], message: "must be 'paid' when delivering credentials" });
      }
      if (body.orderStatus !== undefined && body.orderStatus !== 'delivered') {
        ctx.addIssue({ code: 'custom', path: ['orderStatus'], message: "must be 'delivered' when delivering credentials" });
      }
    } else if (body.orderStatus === undefined && body.paymentStatus === undefined) {
      ctx.addIssue({ code: 'custom', path: ['orderStatus'], message: 'send orderStatus, paymentStatus or the credentials to deliver' });
    }
  });

/** GET /api/admin/credentials/check: the duplicate check over delivered credentials. */
export const credentialsCheckQuery = z
  .object({
    email: z.preprocess(blankAsMissing, z.string({ error: 'must be given once' }).trim().max(EMAIL_MAX, `must be at most ${EMAIL_MAX} characters`).optional()),
    password: z.preprocess(blankAsMissing, queryText(WISE_PASSWORD_MAX).optional()),
    excludeOrderId: z.preprocess(blankAsMissing, uuid.optional()),
  })
  .refine((query) => query.email !== undefined || query.password !== undefined, { path: ['email'], message: 'send an email, a password or both' });

/** A screenshot sent with a problem report: uploaded through POST /api/uploads (kind report), by the sender (the route checks). */
export const reportImage = text(IMAGE_ADDRESS_MAX).refine(
  (value) => value === '' || /^order-proofs\/reports\/(?:[0-9a-f-]{36}\/)?[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/.test(value),
  {
    message: 'must be a screenshot uploaded for a report (order-proofs/reports/...)',
  },
);

export const REPORT_NOTE_MAX = 1000;

/** POST /api/orders/{id}/report: the customer's problem with a delivered order, within its warranty (decision 063). */
export const orderReportBody = z
  .object({
    reason: oneOf(reportReasons),
    note: text(REPORT_NOTE_MAX).default(''),
    image: reportImage.nullish(),
  })
  .superRefine((body, ctx) => {
    if (body.reason === 'other' && body.note === '')
      ctx.addIssue({ code: 'custom', path: ['note'], message: 'is required when the reason is "Something else"' });
  });

export const REPORT_REPLY_MAX = 1000;

/** POST /api/admin/orders/{id}/report/decline: staff's answer to a report they do not replace. */
export const reportDeclineBody = z.object({ message: requiredText(REPORT_REPLY_MAX) });

/** The longest device id and device label a reveal takes. */
export const DEVICE_ID_MAX = 100;
export const DEVICE_LABEL_MAX = 100;

/**
 * POST /api/orders/{id}/reveals: the owner showed the delivered password (decision 066), perhaps offline
 * and sent later: `revealedAt` is when it happened on the device (a time ahead of the server's is taken
 * as the server's).
 */
export const revealBody = z
  .object({
    deviceId: requiredText(DEVICE_ID_MAX).regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, - or _'),
    deviceLabel: requiredText(DEVICE_LABEL_MAX),
    revealedAt: z.iso.datetime({ offset: true, error: 'must be a date and time (ISO 8601)' }),
  })
  .strict();
