import { Hono } from 'hono';
import { syncQuery } from '../contract/sync-requests.ts';
import type { SyncResponse } from '../contract/sync.ts';
import type { UserRow } from '../db/schema.ts';
import { changedOwnOrders, changedServices, changedSiteSettings, changedStocks, changedUsers, changedWorkingSetOrders, readPage } from '../db/sync.ts';
import { changedNotifications } from '../db/notifications.ts';
import { syncHorizon } from '../db/versions.ts';
import type { Deps } from '../deps.ts';
import { forbidden, unauthorized } from '../errors.ts';
import { validate } from '../lib/validate.ts';
import { isStaff, type AppEnv } from '../middleware/session.ts';
import { toStaffNotification } from '../presenters/notifications.ts';
import { toSyncedOrder } from '../presenters/orders.ts';
import { toService } from '../presenters/services.ts';
import { toSiteSettings } from '../presenters/settings.ts';
import { toUser } from '../presenters/users.ts';
import { toWiseStock } from '../presenters/wise-stocks.ts';
import { toServiceStock } from '../presenters/service-stocks.ts';
import { changedServiceStocks } from '../db/service-stocks.ts';
import { changedTickets, messagesOf } from '../db/tickets.ts';
import { presentTicket } from '../presenters/tickets.ts';

/** Splits rows of one window into live ones (serialised) and ids of soft-deleted ones. */
async function split<Row extends { id: string; deleted_at: Date | null }, Out>(rows: Row[], serialise: (row: Row) => Out | Promise<Out>) {
  const live = rows.filter((row) => !row.deleted_at);
  return {
    changes: await Promise.all(live.map(serialise)),
    deleted: rows.filter((row) => row.deleted_at).map((row) => row.id),
  };
}

export function syncRoutes(deps: Deps) {
  return new Hono<AppEnv>().get('/', validate('query', syncQuery), async (c) => {
    const { scope, cursor } = c.req.valid('query');
    const viewer: UserRow | null = c.get('user');
    if (scope === 'private') {
      if (!c.get('auth')) throw unauthorized();
      if (!viewer) throw forbidden('No user record for this account');
    }

    // The horizon first (decision 189): every version up to it has ended before the snapshot below is
    // taken, so that snapshot sees all of them, and no transaction can take one again: a change
    // committed while this runs carries a version above the cursor we hand out. One snapshot for all
    // the reads, so none is half-seen.
    const { horizon, latest: taken } = await syncHorizon(deps.db);
    const answer = await deps.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx): Promise<SyncResponse> => {
        // A cursor ahead of every version taken comes from another database: start again from nothing.
        const reset = cursor > taken;
        const after = reset ? 0 : cursor;
        // Never behind the device's cursor: the rows up to it were handed out already.
        const latest = Math.max(horizon, after);
        const response: SyncResponse = { cursor: latest, reset, hasMore: false, changes: {}, deleted: {} };
        if (after === latest) return response;

        if (scope === 'public') {
          const { tables, upTo } = await readPage(
            async (window) => {
              const [services, settings] = await Promise.all([changedServices(trx, window), changedSiteSettings(trx, window)]);
              return { services, settings: settings ? [settings] : [] };
            },
            after,
            latest,
          );
          const services = await split(tables.services, toService);
          response.changes = { services: services.changes, settings: tables.settings.map((row) => toSiteSettings(row.value)) };
          response.deleted = { services: services.deleted };
          return { ...response, cursor: upTo, hasMore: upTo < latest };
        }

        const me = viewer!;
        const staff = isStaff(me);
        const { tables, upTo } = await readPage(
          async (window) => {
            const [users, orders, wiseStocks, notifications, serviceStocks, tickets] = await Promise.all([
              changedUsers(trx, window, staff ? undefined : me.id),
              staff ? changedWorkingSetOrders(trx, window, deps.clock(), deps.config.staffSyncDays) : changedOwnOrders(trx, window, me.id),
              staff ? changedStocks(trx, window) : [],
              staff ? changedNotifications(trx, window, me) : [],
              staff ? changedServiceStocks(trx, window) : [],
              changedTickets(trx, window, staff ? undefined : me.id),
            ]);
            return { users, orders, wiseStocks, notifications, serviceStocks, tickets };
          },
          after,
          latest,
        );
        const users = await split(tables.users, toUser);
        const orders = await split(tables.orders, (row) => toSyncedOrder(row, me, deps));
        response.changes = { users: users.changes, orders: orders.changes };
        response.deleted = { users: users.deleted, orders: orders.deleted };
        // Support tickets (decision 170), each with all its messages: a message takes the ticket's version.
        const messages = await messagesOf(
          trx,
          tables.tickets.filter((row) => !row.deleted_at).map((row) => row.id),
        );
        const tickets = await split(tables.tickets, (row) => presentTicket(row, messages, deps.blobs));
        response.changes.tickets = tickets.changes;
        response.deleted.tickets = tickets.deleted;
        if (staff) {
          const stocks = await split(tables.wiseStocks, (row) => toWiseStock(row, deps.secrets, deps.blobs, me.user_role === 'admin' ? 'admin' : 'moderator'));
          response.changes.wiseStocks = stocks.changes;
          response.deleted.wiseStocks = stocks.deleted;
          const notifications = await split(tables.notifications, toStaffNotification);
          response.changes.notifications = notifications.changes;
          response.deleted.notifications = notifications.deleted;
          // A service's own stock (decision 072): secrets as Wise stock passwords, masked for moderators.
          const serviceStocks = await split(tables.serviceStocks, (row) => toServiceStock(row, deps.secrets, me.user_role === 'admin' ? 'admin' : 'moderator'));
          response.changes.serviceStocks = serviceStocks.changes;
          response.deleted.serviceStocks = serviceStocks.deleted;
        }
        return { ...response, cursor: upTo, hasMore: upTo < latest };
      });

    c.header('Cache-Control', 'no-store');
    return c.json(answer);
  });
}
