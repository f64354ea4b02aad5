/**
 * The client's view of every route (issue 34 item 2): what `unwrap(api.…)` hands a screen on success,
 * pinned to the contract's types. A route that starts answering another shape, or an untyped one, fails
 * `npm run typecheck` here; a route added to the route table without a row here fails the test below.
 */
import type { InferResponseType } from 'hono/client';
import type { SuccessStatusCode } from 'hono/utils/http-status';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { AuditEntry } from '../../../edge-api/src/contract/audit.ts';
import type { Coupon, CouponQuote } from '../../../edge-api/src/contract/coupons.ts';
import type { GuestOrderPlaced, GuestOrderState } from '../../../edge-api/src/contract/guest-orders.ts';
import type { NotificationList, NotificationsRead } from '../../../edge-api/src/contract/notifications.ts';
import type { AdminOrderPage, CredentialsCheck, Order, OrderStats } from '../../../edge-api/src/contract/orders.ts';
import type { AdminWebhook, ApiKey, CreatedApiKey } from '../../../edge-api/src/contract/partners.ts';
import type { PaymentEventView, PaymentRail, PaymentSettingsView } from '../../../edge-api/src/contract/payments.ts';
import type { CustomerPrices, PriceQuote, PriceTier } from '../../../edge-api/src/contract/pricing.ts';
import type { ServiceStockBatch, ServiceStockBatchWithdrawal, ServiceStockPasswordChange } from '../../../edge-api/src/contract/service-stock-changes.ts';
import type { ServiceStock, ServiceStockImportPreview, ServiceStockImportResult } from '../../../edge-api/src/contract/service-stocks.ts';
import type { Service } from '../../../edge-api/src/contract/services.ts';
import type { SiteSettings } from '../../../edge-api/src/contract/settings.ts';
import type { ImportPreview, ImportResult, StockBatch, WithdrawResult } from '../../../edge-api/src/contract/stock-batches.ts';
import type { SyncResponse } from '../../../edge-api/src/contract/sync.ts';
import type { Ticket, TicketList } from '../../../edge-api/src/contract/tickets.ts';
import type { UploadedImage } from '../../../edge-api/src/contract/uploads.ts';
import type { User } from '../../../edge-api/src/contract/users.ts';
import type { VaultRegistered, VaultSummary, VaultUnlocked } from '../../../edge-api/src/contract/vaults.ts';
import type { StockDuplicateCheck, StockPasswordChange, WiseStock, WiseStockReveal } from '../../../edge-api/src/contract/wise-stocks.ts';
import { routeTable } from '../../../edge-api/src/testing/route-table.ts';
import type { ApiClient } from './api-client.ts';

/** What a route answers on success, as the typed client reads it. */
type Ok<Call> = InferResponseType<Call, SuccessStatusCode>;

/** Each route of the route table, and the type check of its answer (run by tsc; the function body is never called). */
const clientViews: Record<string, () => void> = {
  'GET /api/config': () =>
    expectTypeOf<Ok<ApiClient['config']['$get']>>().toEqualTypeOf<{
      supabaseUrl: string;
      supabaseAnonKey: string;
      demo: boolean;
      pushPublicKey: string | null;
    }>(),
  'GET /api/services': () => expectTypeOf<Ok<ApiClient['services']['$get']>>().toEqualTypeOf<Service[]>(),
  'GET /api/services/:id': () => expectTypeOf<Ok<ApiClient['services'][':id']['$get']>>().toEqualTypeOf<Service>(),
  'POST /api/services': () => expectTypeOf<Ok<ApiClient['services']['$post']>>().toEqualTypeOf<Service>(),
  'PUT /api/services/:id': () => expectTypeOf<Ok<ApiClient['services'][':id']['$put']>>().toEqualTypeOf<Service>(),
  'DELETE /api/services/:id': () => expectTypeOf<Ok<ApiClient['services'][':id']['$delete']>>().toEqualTypeOf<null>(),

  'POST /api/users': () => expectTypeOf<Ok<ApiClient['users']['$post']>>().toEqualTypeOf<User>(),
  'GET /api/users': () => expectTypeOf<Ok<ApiClient['users']['$get']>>().toEqualTypeOf<User[]>(),
  'GET /api/users/:uid': () => expectTypeOf<Ok<ApiClient['users'][':uid']['$get']>>().toEqualTypeOf<User>(),
  'PUT /api/users/:uid': () => expectTypeOf<Ok<ApiClient['users'][':uid']['$put']>>().toEqualTypeOf<User>(),
  'PUT /api/users/:uid/role': () => expectTypeOf<Ok<ApiClient['users'][':uid']['role']['$put']>>().toEqualTypeOf<User>(),
  'DELETE /api/users/:uid': () => expectTypeOf<Ok<ApiClient['users'][':uid']['$delete']>>().toEqualTypeOf<null>(),

  'POST /api/orders': () => expectTypeOf<Ok<ApiClient['orders']['$post']>>().toEqualTypeOf<{ success: true; order: Order }>(),
  'POST /api/orders/:id/cancel': () => expectTypeOf<Ok<ApiClient['orders'][':id']['cancel']['$post']>>().toEqualTypeOf<Order>(),
  'PUT /api/orders/:id/payment-proof': () => expectTypeOf<Ok<ApiClient['orders'][':id']['payment-proof']['$put']>>().toEqualTypeOf<Order>(),
  'POST /api/orders/:id/report': () => expectTypeOf<Ok<ApiClient['orders'][':id']['report']['$post']>>().toEqualTypeOf<Order>(),
  'GET /api/orders/:id/file': () => expectTypeOf<Ok<ApiClient['orders'][':id']['file']['$get']>>().toEqualTypeOf<Uint8Array<ArrayBuffer>>(),
  'POST /api/orders/:id/reveals': () => expectTypeOf<Ok<ApiClient['orders'][':id']['reveals']['$post']>>().toEqualTypeOf<Order>(),
  'POST /api/orders/:id/payment': () => expectTypeOf<Ok<ApiClient['orders'][':id']['payment']['$post']>>().toEqualTypeOf<Order>(),
  'POST /api/orders/:id/payment/check': () => expectTypeOf<Ok<ApiClient['orders'][':id']['payment']['check']['$post']>>().toEqualTypeOf<Order>(),
  'GET /api/orders/:id/payment-events': () => expectTypeOf<Ok<ApiClient['orders'][':id']['payment-events']['$get']>>().toEqualTypeOf<PaymentEventView[]>(),
  'GET /api/orders/user/:userId': () => expectTypeOf<Ok<ApiClient['orders']['user'][':userId']['$get']>>().toEqualTypeOf<Order[]>(),

  'GET /api/vaults': () => expectTypeOf<Ok<ApiClient['vaults']['$get']>>().toEqualTypeOf<VaultSummary[]>(),
  'POST /api/vaults': () => expectTypeOf<Ok<ApiClient['vaults']['$post']>>().toEqualTypeOf<VaultRegistered>(),
  'POST /api/vaults/:id/unlock': () => expectTypeOf<Ok<ApiClient['vaults'][':id']['unlock']['$post']>>().toEqualTypeOf<VaultUnlocked>(),
  'DELETE /api/vaults/:id': () => expectTypeOf<Ok<ApiClient['vaults'][':id']['$delete']>>().toEqualTypeOf<null>(),

  'GET /api/admin/payments': () => expectTypeOf<Ok<ApiClient['admin']['payments']['$get']>>().toEqualTypeOf<PaymentSettingsView>(),
  'PUT /api/admin/payments': () => expectTypeOf<Ok<ApiClient['admin']['payments']['$put']>>().toEqualTypeOf<PaymentSettingsView>(),
  'PUT /api/admin/payments/:rail': () => expectTypeOf<Ok<ApiClient['admin']['payments'][':rail']['$put']>>().toEqualTypeOf<PaymentSettingsView>(),
  'POST /api/admin/payments/reconcile': () =>
    expectTypeOf<Ok<ApiClient['admin']['payments']['reconcile']['$post']>>().toEqualTypeOf<{
      requests: Record<PaymentRail, number>;
      settled: number;
      expired: number;
    }>(),
  'POST /api/payments/binance-pay/webhook': () =>
    expectTypeOf<Ok<ApiClient['payments']['binance-pay']['webhook']['$post']>>().toEqualTypeOf<{ returnCode: string; returnMessage: null }>(),
  'GET /api/payments/rails': () => expectTypeOf<Ok<ApiClient['payments']['rails']['$get']>>().toEqualTypeOf<{ rails: PaymentRail[] }>(),
  // A redirect back to the shop: no body for a screen.
  'GET /api/payments/bkash/callback': () => expectTypeOf<Ok<ApiClient['payments']['bkash']['callback']['$get']>>().toBeNever(),

  'GET /api/admin/pricing/services/:id/tiers': () =>
    expectTypeOf<Ok<ApiClient['admin']['pricing']['services'][':id']['tiers']['$get']>>().toEqualTypeOf<{ tiers: PriceTier[] }>(),
  'PUT /api/admin/pricing/services/:id/tiers': () =>
    expectTypeOf<Ok<ApiClient['admin']['pricing']['services'][':id']['tiers']['$put']>>().toEqualTypeOf<{ tiers: PriceTier[] }>(),
  'GET /api/admin/pricing/users/:id': () => expectTypeOf<Ok<ApiClient['admin']['pricing']['users'][':id']['$get']>>().toEqualTypeOf<CustomerPrices>(),
  'PUT /api/admin/pricing/users/:id': () => expectTypeOf<Ok<ApiClient['admin']['pricing']['users'][':id']['$put']>>().toEqualTypeOf<CustomerPrices>(),

  'POST /api/guest-orders': () => expectTypeOf<Ok<ApiClient['guest-orders']['$post']>>().toEqualTypeOf<GuestOrderPlaced>(),
  'GET /api/guest-orders/:id': () => expectTypeOf<Ok<ApiClient['guest-orders'][':id']['$get']>>().toEqualTypeOf<GuestOrderState>(),
  'POST /api/pricing/quote': () => expectTypeOf<Ok<ApiClient['pricing']['quote']['$post']>>().toEqualTypeOf<PriceQuote>(),
  'POST /api/coupons/quote': () => expectTypeOf<Ok<ApiClient['coupons']['quote']['$post']>>().toEqualTypeOf<CouponQuote>(),
  'GET /api/admin/coupons': () => expectTypeOf<Ok<ApiClient['admin']['coupons']['$get']>>().toEqualTypeOf<{ coupons: Coupon[] }>(),
  'POST /api/admin/coupons': () => expectTypeOf<Ok<ApiClient['admin']['coupons']['$post']>>().toEqualTypeOf<Coupon>(),
  'PUT /api/admin/coupons/:id': () => expectTypeOf<Ok<ApiClient['admin']['coupons'][':id']['$put']>>().toEqualTypeOf<Coupon>(),

  'GET /api/admin/orders': () => expectTypeOf<Ok<ApiClient['admin']['orders']['$get']>>().toEqualTypeOf<AdminOrderPage>(),
  'POST /api/admin/orders/:id/report/decline': () =>
    expectTypeOf<Ok<ApiClient['admin']['orders'][':id']['report']['decline']['$post']>>().toEqualTypeOf<Order>(),
  'GET /api/admin/orders/stats': () => expectTypeOf<Ok<ApiClient['admin']['orders']['stats']['$get']>>().toEqualTypeOf<OrderStats>(),
  'GET /api/admin/orders/export.csv': () =>
    expectTypeOf<Ok<ApiClient['admin']['orders']['export.csv']['$get']>>().toEqualTypeOf<ReadableStream<Uint8Array<ArrayBufferLike>>>(),
  'GET /api/admin/orders/:id': () => expectTypeOf<Ok<ApiClient['admin']['orders'][':id']['$get']>>().toEqualTypeOf<Order>(),
  'PUT /api/admin/orders/:id': () => expectTypeOf<Ok<ApiClient['admin']['orders'][':id']['$put']>>().toEqualTypeOf<Order>(),
  'DELETE /api/admin/orders/:id': () => expectTypeOf<Ok<ApiClient['admin']['orders'][':id']['$delete']>>().toEqualTypeOf<null>(),
  'GET /api/admin/credentials/check': () => expectTypeOf<Ok<ApiClient['admin']['credentials']['check']['$get']>>().toEqualTypeOf<CredentialsCheck>(),
  // The details are free-form JSON: the client reads them as JSON values, which the contract's `unknown` takes.
  'GET /api/admin/audit': () => expectTypeOf<Ok<ApiClient['admin']['audit']['$get']>>().toExtend<AuditEntry[]>(),

  'GET /api/wise-stocks': () => expectTypeOf<Ok<ApiClient['wise-stocks']['$get']>>().toEqualTypeOf<WiseStock[]>(),
  'GET /api/wise-stocks/check': () => expectTypeOf<Ok<ApiClient['wise-stocks']['check']['$get']>>().toEqualTypeOf<StockDuplicateCheck>(),
  'GET /api/wise-stocks/export.csv': () =>
    expectTypeOf<Ok<ApiClient['wise-stocks']['export.csv']['$get']>>().toEqualTypeOf<ReadableStream<Uint8Array<ArrayBufferLike>>>(),
  'GET /api/wise-stocks/:id': () => expectTypeOf<Ok<ApiClient['wise-stocks'][':id']['$get']>>().toEqualTypeOf<WiseStock>(),
  'POST /api/wise-stocks/:id/reveal': () => expectTypeOf<Ok<ApiClient['wise-stocks'][':id']['reveal']['$post']>>().toEqualTypeOf<WiseStockReveal>(),
  'POST /api/wise-stocks': () => expectTypeOf<Ok<ApiClient['wise-stocks']['$post']>>().toEqualTypeOf<WiseStock>(),
  'PUT /api/wise-stocks/:id': () => expectTypeOf<Ok<ApiClient['wise-stocks'][':id']['$put']>>().toHaveProperty('stock').toEqualTypeOf<WiseStock>(),
  'POST /api/wise-stocks/:id/password': () => expectTypeOf<Ok<ApiClient['wise-stocks'][':id']['password']['$post']>>().toEqualTypeOf<StockPasswordChange>(),
  'DELETE /api/wise-stocks/:id': () => expectTypeOf<Ok<ApiClient['wise-stocks'][':id']['$delete']>>().toEqualTypeOf<null>(),

  'GET /api/service-stocks': () => expectTypeOf<Ok<ApiClient['service-stocks']['$get']>>().toEqualTypeOf<ServiceStock[]>(),
  'POST /api/service-stocks': () => expectTypeOf<Ok<ApiClient['service-stocks']['$post']>>().toEqualTypeOf<ServiceStock>(),
  'POST /api/service-stocks/preview': () => expectTypeOf<Ok<ApiClient['service-stocks']['preview']['$post']>>().toEqualTypeOf<ServiceStockImportPreview>(),
  'POST /api/service-stocks/batch': () => expectTypeOf<Ok<ApiClient['service-stocks']['batch']['$post']>>().toEqualTypeOf<ServiceStockImportResult>(),
  'GET /api/service-stocks/export.csv': () => expectTypeOf<Ok<ApiClient['service-stocks']['export.csv']['$get']>>().toEqualTypeOf<string>(),
  'POST /api/service-stocks/:id/password': () =>
    expectTypeOf<Ok<ApiClient['service-stocks'][':id']['password']['$post']>>().toEqualTypeOf<ServiceStockPasswordChange>(),
  'GET /api/service-stocks/batches': () => expectTypeOf<Ok<ApiClient['service-stocks']['batches']['$get']>>().toEqualTypeOf<ServiceStockBatch[]>(),
  'POST /api/service-stocks/batches/:id/withdraw': () =>
    expectTypeOf<Ok<ApiClient['service-stocks']['batches'][':id']['withdraw']['$post']>>().toEqualTypeOf<ServiceStockBatchWithdrawal>(),
  'POST /api/service-stocks/:id/withdraw': () => expectTypeOf<Ok<ApiClient['service-stocks'][':id']['withdraw']['$post']>>().toEqualTypeOf<ServiceStock>(),
  'GET /api/stock-batches': () => expectTypeOf<Ok<ApiClient['stock-batches']['$get']>>().toEqualTypeOf<StockBatch[]>(),
  'POST /api/stock-batches/preview': () => expectTypeOf<Ok<ApiClient['stock-batches']['preview']['$post']>>().toEqualTypeOf<ImportPreview>(),
  'POST /api/stock-batches': () => expectTypeOf<Ok<ApiClient['stock-batches']['$post']>>().toEqualTypeOf<ImportResult>(),
  'POST /api/stock-batches/:id/withdraw': () => expectTypeOf<Ok<ApiClient['stock-batches'][':id']['withdraw']['$post']>>().toEqualTypeOf<WithdrawResult>(),

  'GET /api/notifications': () => expectTypeOf<Ok<ApiClient['notifications']['$get']>>().toEqualTypeOf<NotificationList>(),
  'POST /api/notifications/read': () => expectTypeOf<Ok<ApiClient['notifications']['read']['$post']>>().toEqualTypeOf<NotificationsRead>(),
  'GET /api/settings': () => expectTypeOf<Ok<ApiClient['settings']['$get']>>().toEqualTypeOf<SiteSettings>(),
  'PUT /api/settings': () => expectTypeOf<Ok<ApiClient['settings']['$put']>>().toEqualTypeOf<SiteSettings>(),
  // An image answers its URL; a delivery file (decision 069) its name and size, and no URL (it is private to its order).
  'POST /api/uploads': () => expectTypeOf<Ok<ApiClient['uploads']['$post']>>().toEqualTypeOf<UploadedImage | { path: string; name: string; size: number }>(),
  'GET /api/sync': () => expectTypeOf<Ok<ApiClient['sync']['$get']>>().toEqualTypeOf<SyncResponse>(),
  'POST /api/push/subscriptions': () =>
    expectTypeOf<Ok<ApiClient['push']['subscriptions']['$post']>>().toEqualTypeOf<{ subscribed: true; createdAt: string }>(),
  'DELETE /api/push/subscriptions': () => expectTypeOf<Ok<ApiClient['push']['subscriptions']['$delete']>>().toEqualTypeOf<{ removed: boolean }>(),
  'POST /api/push/subscriptions/others': () => expectTypeOf<Ok<ApiClient['push']['subscriptions']['others']['$post']>>().toEqualTypeOf<{ removed: number }>(),

  'GET /api/tickets': () => expectTypeOf<Ok<ApiClient['tickets']['$get']>>().toEqualTypeOf<TicketList>(),
  'POST /api/tickets': () => expectTypeOf<Ok<ApiClient['tickets']['$post']>>().toEqualTypeOf<Ticket>(),
  'GET /api/tickets/:id': () => expectTypeOf<Ok<ApiClient['tickets'][':id']['$get']>>().toEqualTypeOf<Ticket>(),
  'POST /api/tickets/:id/messages': () => expectTypeOf<Ok<ApiClient['tickets'][':id']['messages']['$post']>>().toEqualTypeOf<Ticket>(),
  'POST /api/tickets/:id/close': () => expectTypeOf<Ok<ApiClient['tickets'][':id']['close']['$post']>>().toEqualTypeOf<Ticket>(),
  'POST /api/tickets/:id/read': () => expectTypeOf<Ok<ApiClient['tickets'][':id']['read']['$post']>>().toEqualTypeOf<Ticket>(),
  'PUT /api/tickets/:id/assignee': () => expectTypeOf<Ok<ApiClient['tickets'][':id']['assignee']['$put']>>().toEqualTypeOf<Ticket>(),
  'POST /api/tickets/:id/warranty-report': () => expectTypeOf<Ok<ApiClient['tickets'][':id']['warranty-report']['$post']>>().toEqualTypeOf<Ticket>(),
  'DELETE /api/tickets/:id': () => expectTypeOf<Ok<ApiClient['tickets'][':id']['$delete']>>().toEqualTypeOf<null>(),

  'GET /api/admin/api-keys': () => expectTypeOf<Ok<ApiClient['admin']['api-keys']['$get']>>().toEqualTypeOf<ApiKey[]>(),
  'GET /api/admin/api-keys/webhooks': () => expectTypeOf<Ok<ApiClient['admin']['api-keys']['webhooks']['$get']>>().toEqualTypeOf<AdminWebhook[]>(),
  'POST /api/admin/api-keys': () => expectTypeOf<Ok<ApiClient['admin']['api-keys']['$post']>>().toEqualTypeOf<CreatedApiKey>(),
  'POST /api/admin/api-keys/webhooks/deliveries/:id/resend': () =>
    expectTypeOf<Ok<ApiClient['admin']['api-keys']['webhooks']['deliveries'][':id']['resend']['$post']>>().toEqualTypeOf<{ id: string; state: 'pending' }>(),
  'POST /api/admin/api-keys/:id/revoke': () => expectTypeOf<Ok<ApiClient['admin']['api-keys'][':id']['revoke']['$post']>>().toEqualTypeOf<ApiKey>(),
  'GET /api/openapi.json': () => expectTypeOf<Ok<ApiClient['openapi.json']['$get']>>().toEqualTypeOf<string>(),
};

/**
 * /api/v1 is the partners' API (decision 173), described by its OpenAPI document and checked against its
 * zod schemas in routes/public-api.test.ts; the PWA never calls it, and createApp mounts it out of AppType.
 */
const partnerRoutes = Object.keys(routeTable).filter((route) => route.split(' ')[1]?.startsWith('/api/v1/'));

describe("the client's view of every route", () => {
  it('has a type check for every route of the route table but the partners’ API', () => {
    expect(Object.keys(clientViews).sort()).toEqual(
      Object.keys(routeTable)
        .filter((route) => !partnerRoutes.includes(route))
        .sort(),
    );
  });
});
