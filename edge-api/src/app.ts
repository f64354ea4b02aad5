import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import type { Deps } from './deps.ts';
import { errorHandler } from './errors.ts';
import { limitBodies, limitWrites, refuseUnsafeText } from './middleware/request-guards.ts';
import { session, type AppEnv } from './middleware/session.ts';
import { vaultGate } from './middleware/vault-gate.ts';
import { vaultRoutes } from './routes/vaults.ts';
import { pushAfterCommit } from './push/send.ts';
import { adminAuditRoutes } from './routes/admin-audit.ts';
import { adminCredentialRoutes } from './routes/admin-credentials.ts';
import { adminOrderRoutes } from './routes/admin-orders.ts';
import { configRoutes } from './routes/config.ts';
import { notificationRoutes } from './routes/notifications.ts';
import { orderRoutes } from './routes/orders.ts';
import { pushRoutes } from './routes/push.ts';
import { serviceRoutes } from './routes/services.ts';
import { settingsRoutes } from './routes/settings.ts';
import { stockBatchRoutes } from './routes/stock-batches.ts';
import { syncRoutes } from './routes/sync.ts';
import { uploadRoutes } from './routes/uploads.ts';
import { userRoutes } from './routes/users.ts';
import { wiseStockRoutes } from './routes/wise-stocks.ts';
import { serviceStockRoutes } from './routes/service-stocks.ts';
import { serviceStockBatchRoutes } from './routes/service-stock-batches.ts';
import { orderPaymentRoutes } from './routes/order-payments.ts';
import { guestOrderRoutes } from './routes/guest-orders.ts';
import { pricingRoutes } from './routes/pricing.ts';
import { priceQuoteRoutes } from './routes/price-quote.ts';
import { adminCouponRoutes, couponRoutes } from './routes/coupons.ts';
import { paymentAdminRoutes } from './routes/payment-admin.ts';
import { paymentCallbackRoutes } from './routes/payment-callbacks.ts';
import { ticketRoutes } from './routes/tickets.ts';
import { adminApiKeyRoutes } from './routes/admin-api-keys.ts';
import { openApiRoutes } from './routes/openapi.ts';
import { publicApiRoutes } from './routes/public-api.ts';
import { publicWebhookRoutes } from './routes/public-webhooks.ts';
import { apiKeyAuth } from './middleware/api-key.ts';
import { webhooksAfterCommit } from './webhooks/send.ts';

/**
 * An /api path no route answers, in the API's error shape. Entries mount it after the app too: mounted
 * with route(), the app's own notFound is not consulted, and the app shell would answer instead.
 */
export const apiNotFound = (c: Context) => c.json({ error: { code: 'not_found', message: `No route for ${c.req.method} ${c.req.path}` } }, 404);

/** The API, mounted under /api. Reads as a table of contents: one sub-app per resource. */
export function createApp(deps: Deps) {
  const app = new Hono<AppEnv>().basePath('/api');
  app.onError(errorHandler(deps.logger));
  app.notFound(apiNotFound);
  if (deps.config.allowedOrigins.length > 0) {
    app.use('*', cors({ origin: deps.config.allowedOrigins, credentials: false, exposeHeaders: ['Content-Disposition', 'X-Next-Cursor'] }));
  }
  // Before anything reads a body or a token: the size of the body, then the text in it.
  app.use('*', limitBodies);
  app.use('*', refuseUnsafeText);
  app.use('*', session(deps));
  // An account with a device vault gets no delivered secret in clear without an unlock (decision 182).
  app.use('*', vaultGate(deps));
  app.use('*', limitWrites(deps));
  // Push messages a change wrote are sent once it has answered (decision 067).
  app.use('*', pushAfterCommit(deps));
  // Webhook deliveries a change wrote are posted once it has answered too (decision 174).
  app.use('*', webhooksAfterCommit(deps));
  // The public API (decision 173): every /api/v1 request acts as the account of its API key, within its scopes.
  app.use('/v1/*', apiKeyAuth(deps));
  return app
    .route('/config', configRoutes(deps))
    .route('/services', serviceRoutes(deps))
    .route('/users', userRoutes(deps))
    .route('/orders', orderRoutes(deps))
    .route('/orders', orderPaymentRoutes(deps))
    .route('/admin/orders', adminOrderRoutes(deps))
    .route('/admin/credentials', adminCredentialRoutes(deps))
    .route('/admin/audit', adminAuditRoutes(deps))
    .route('/wise-stocks', wiseStockRoutes(deps))
    .route('/service-stocks/batches', serviceStockBatchRoutes(deps))
    .route('/service-stocks', serviceStockRoutes(deps))
    .route('/stock-batches', stockBatchRoutes(deps))
    .route('/notifications', notificationRoutes(deps))
    .route('/settings', settingsRoutes(deps))
    .route('/uploads', uploadRoutes(deps))
    .route('/sync', syncRoutes(deps))
    .route('/push', pushRoutes(deps))
    .route('/admin/payments', paymentAdminRoutes(deps))
    .route('/payments', paymentCallbackRoutes(deps))
    .route('/coupons', couponRoutes(deps))
    .route('/admin/coupons', adminCouponRoutes(deps))
    .route('/tickets', ticketRoutes(deps))
    .route('/admin/api-keys', adminApiKeyRoutes(deps))
    .route('/v1', publicApiRoutes(deps) as unknown as Hono<AppEnv>)
    .route('/v1/webhooks', publicWebhookRoutes(deps) as unknown as Hono<AppEnv>)
    .route('/openapi.json', openApiRoutes())
    .route('/vaults', vaultRoutes(deps))
    .route('/guest-orders', guestOrderRoutes(deps))
    .route('/admin/pricing', pricingRoutes(deps))
    .route('/pricing', priceQuoteRoutes(deps));
}

export type AppType = ReturnType<typeof createApp>;
