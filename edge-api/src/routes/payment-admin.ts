import { Hono } from 'hono';
import type { Context } from 'hono';
import { paymentSettingsBody, railParam, railUpdateBody } from '../contract/payment-requests.ts';
import { missingFields, paymentRails, railFields, type PaymentRail, type PaymentSettingsView } from '../contract/payments.ts';
import { recordAudit } from '../db/audit.ts';
import type { Deps } from '../deps.ts';
import { badRequest } from '../errors.ts';
import { validate } from '../lib/validate.ts';
import { requireAdmin, requireStaff, type AppEnv } from '../middleware/session.ts';
import { paymentRound } from '../payments/round.ts';
import { loadPaymentSettings, loadRail } from '../payments/rail-store.ts';
import { presentRail } from '../presenters/payments.ts';

/** /api/admin/payments: Settings → Payments (admins), and "check payments now" (staff). Secrets are written, never read back. */
export function paymentAdminRoutes(deps: Deps) {
  const view = async (c: Context): Promise<PaymentSettingsView> => {
    const settings = await loadPaymentSettings(deps.db);
    const rails = await Promise.all(paymentRails.map(async (rail) => presentRail(rail, await loadRail(deps.db, deps.secrets, rail))));
    const site = (deps.config.payments?.siteUrl ?? new URL(c.req.url).origin).replace(/\/+$/, '');
    return { ...settings, rails, webhookUrls: { binancePay: `${site}/api/payments/binance-pay/webhook`, bkash: `${site}/api/payments/bkash/callback` } };
  };
  return new Hono<AppEnv>()
    .get('/', requireAdmin, async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await view(c));
    })
    .put('/', requireAdmin, validate('json', paymentSettingsBody), async (c) => {
      const { expiryMinutes, bdtPerUsd } = c.req.valid('json');
      await deps.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('payment_settings')
          .values({ id: 'payments', expiry_minutes: expiryMinutes, bdt_per_usd: bdtPerUsd })
          .onConflict((oc) => oc.column('id').doUpdateSet({ expiry_minutes: expiryMinutes, bdt_per_usd: bdtPerUsd, updated_at: new Date() }))
          .execute();
        await recordAudit(trx, c.get('user'), { action: 'settings.payments', entity: 'settings', entityId: 'payments', details: { expiryMinutes, bdtPerUsd } });
      });
      c.header('Cache-Control', 'no-store');
      return c.json(await view(c));
    })
    .put('/:rail', requireAdmin, validate('param', railParam), validate('json', railUpdateBody), async (c) => {
      const rail = c.req.valid('param').rail as PaymentRail;
      const body = c.req.valid('json');
      const before = await loadRail(deps.db, deps.secrets, rail);
      const settings = Object.fromEntries(
        railFields[rail].settings
          .map((name) => [name, (body.settings as Record<string, string | undefined>)[name] ?? before?.settings[name] ?? ''])
          .filter(([, value]) => value !== ''),
      );
      const given = Object.entries(body.secrets as Record<string, string | undefined>).filter(
        ([name, value]) => railFields[rail].secrets.includes(name) && value,
      );
      const secrets = { ...before?.secrets, ...Object.fromEntries(given) };
      const missing = missingFields(rail, settings, Object.keys(secrets));
      if (body.enabled && missing.length > 0) {
        throw badRequest(
          `enabled: fill in ${missing.join(', ')} first`,
          missing.map((name) => ({
            path: railFields[rail].secrets.includes(name) ? `secrets.${name}` : `settings.${name}`,
            message: 'is required to switch this rail on',
          })),
        );
      }
      const sealed = Object.keys(secrets).length > 0 ? await deps.secrets.encrypt(JSON.stringify(secrets)) : null;
      await deps.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('payment_rails')
          .values({ rail, enabled: body.enabled, settings: JSON.stringify(settings), secrets_enc: sealed })
          .onConflict((oc) =>
            oc.column('rail').doUpdateSet({ enabled: body.enabled, settings: JSON.stringify(settings), secrets_enc: sealed, updated_at: new Date() }),
          )
          .execute();
        // Which secrets were replaced, never their values.
        await recordAudit(trx, c.get('user'), {
          action: 'settings.payment_rail',
          entity: 'settings',
          entityId: rail,
          details: { enabled: body.enabled, settings, secretsReplaced: given.map(([name]) => name) },
        });
      });
      c.header('Cache-Control', 'no-store');
      return c.json(await view(c));
    })
    .post('/reconcile', requireStaff, async (c) => c.json(await paymentRound(deps)));
}
