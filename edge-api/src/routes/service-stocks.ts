import { Hono, type Context } from 'hono';
import type { Kysely, Transaction } from 'kysely';
import { idParam } from '../contract/fields.ts';
import {
  newServiceStockBody,
  serviceStockImportBody,
  serviceStockImportPreviewBody,
  serviceStockExportQuery,
  serviceStockListQuery,
  withdrawServiceStockBody,
  type ServiceStockImportResult,
  type ServiceStockImportRow,
  type ServiceStockKind,
} from '../contract/service-stocks.ts';
import { hasDuplicate } from '../contract/wise-stocks.ts';
import { recordAudit } from '../db/audit.ts';
import { credentialsKeys, duplicateCheck, findKnownCredentials } from '../db/credentials.ts';
import type { ServiceStockDetails } from '../db/schema.ts';
import {
  findServiceStockIncludingDeleted,
  insertServiceStock,
  insertServiceStocks,
  listServiceStocks,
  lockServiceStock,
  setServiceStockStatus,
} from '../db/service-stocks.ts';
import { KeyReusedError, onceForKey } from '../db/idempotency.ts';
import type { Database } from '../db/schema.ts';
import { nextVersion } from '../db/versions.ts';
import { lockStockAdditions } from '../db/wise-stocks.ts';
import type { Deps } from '../deps.ts';
import { ApiError, badRequest, conflict, notFound } from '../errors.ts';
import { validate } from '../lib/validate.ts';
import { assertVersion } from '../lib/versioning.ts';
import { requireAdmin, requireStaff, type AppEnv, type SignedInEnv } from '../middleware/session.ts';
import { assertNoDuplicateSecrets, sealOtherDelivery } from '../operations/other-deliveries.ts';
import type { OrderChange } from '../operations/deliver.ts';
import { canonicalJson } from '../operations/deliver.ts';
import { parseServiceStockRows, planServiceStockImport, toImportPreview } from '../operations/service-stock-import.ts';
import { watchStockLevel } from '../operations/stock-watch.ts';
import { serviceStockCsvHeader, serviceStockCsvRow } from '../presenters/service-stock-csv.ts';
import { toServiceStock } from '../presenters/service-stocks.ts';
import { createStaffRevealGuard } from '../operations/staff-reveals.ts';
import type { StockViewer } from '../presenters/wise-stocks.ts';

/** No order has this id: the duplicate check of other kinds then compares with every order. */
const NO_ORDER = '00000000-0000-0000-0000-000000000000';

const kindWords: Record<string, string> = { account: 'an account', file: 'a file', server: 'a server login', lines: 'a list of lines' };

/** The service stock is added to, of a kind kept in stock: 400 naming serviceId otherwise. */
async function stockedService(db: Kysely<Database> | Transaction<Database>, serviceId: string) {
  const service = await db
    .selectFrom('services')
    .select(['id', 'title', 'delivery_kind'])
    .where('id', '=', serviceId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!service) throw badRequest('serviceId: no such service', [{ path: 'serviceId', message: 'no such service' }]);
  if (service.delivery_kind === 'file') {
    const message = 'this service delivers a file, which is not kept in stock';
    throw badRequest(`serviceId: ${message}`, [{ path: 'serviceId', message }]);
  }
  return { id: service.id, kind: service.delivery_kind as ServiceStockKind };
}

/** The rows that block an import, in a sentence naming the first (the details list them all). */
function describeProblems(rows: ServiceStockImportRow[], then = 'Nothing was imported.') {
  const first = rows[0]!;
  const problem = first.problems[0]!;
  const more = rows.reduce((sum, row) => sum + row.problems.length, 0) - 1;
  return `Row ${first.row}, ${problem.field}: ${problem.message}${more > 0 ? ` (and ${more} more ${more === 1 ? 'problem' : 'problems'})` : ''}. ${then}`;
}

/**
 * Stock kept for one service, of its kind (decision 072). The Wise stock pool (/api/wise-stocks) stays as
 * it is. Staff list; admins add and withdraw. Secrets are sealed before any row is locked, checked for
 * duplicates by blind index (409 duplicate_credentials unless overridden, as decision 055).
 */
// eslint-disable-next-line max-lines-per-function -- over 80 lines before the rule came; to split (issue 34)
export function serviceStockRoutes(deps: Deps) {
  const viewerOf = (c: Context<SignedInEnv>): StockViewer => (c.get('user').user_role === 'admin' ? 'admin' : 'moderator');
  const limitReveals = createStaffRevealGuard(deps);

  return (
    new Hono<AppEnv>()
      .get('/export.csv', requireAdmin, validate('query', serviceStockExportQuery), async (c) => {
        const { serviceId, passwords } = c.req.valid('query');
        const user = c.get('user')!;
        const service = await stockedService(deps.db, serviceId);
        // Every secret of the service at once: the whole of the admin's reveal budget, as the Wise export (decision 160).
        if (passwords) await limitReveals(user, 'GET /api/service-stocks/export.csv', Number.POSITIVE_INFINITY);
        // Recorded before anything is sent: an export that starts is an export that happened.
        await recordAudit(deps.db, user, {
          action: 'service_stock.export',
          entity: 'service',
          entityId: serviceId,
          details: { passwords, kind: service.kind },
        });
        const rows = (await listServiceStocks(deps.db, serviceId)).filter((row) => row.kind === service.kind);
        const secrets = passwords
          ? await Promise.all(rows.map(async (row) => (await deps.secrets.open(row.secret_enc, { entity: 'service_stock', id: row.id })) ?? ''))
          : [];
        const body =
          serviceStockCsvHeader(service.kind, passwords) + rows.map((row, i) => serviceStockCsvRow(row, passwords ? secrets[i] : undefined)).join('');
        const day = deps.clock().toISOString().slice(0, 10);
        return c.body(body, 200, {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="service-stock-${service.kind}-${day}${passwords ? '-with-passwords' : ''}.csv"`,
          'cache-control': 'no-store',
        });
      })
      .get('/', requireStaff, validate('query', serviceStockListQuery), async (c) => {
        const viewer = viewerOf(c);
        const rows = await listServiceStocks(deps.db, c.req.valid('query').serviceId);
        c.header('cache-control', 'no-store');
        return c.json(await Promise.all(rows.map((row) => toServiceStock(row, deps.secrets, viewer))));
      })
      // eslint-disable-next-line max-lines-per-function -- over 80 lines once the formatter came (decision 223); to split (issue 34)
      .post('/', requireAdmin, validate('json', newServiceStockBody), async (c) => {
        const body = c.req.valid('json');
        const id = body.id ?? crypto.randomUUID();
        const user = c.get('user')!;
        const kind = body.account ? 'account' : body.server ? 'server' : 'lines';
        const override = body.overrideDuplicates === true;
        // Sealed before the transaction: no encryption while rows are locked.
        let details: ServiceStockDetails;
        let secretEnc: string;
        let secretIndexes: string[];
        let email: string | null = null;
        const accountKeys = body.account ? await credentialsKeys(deps.secrets.blindIndex, body.account.email, body.account.password) : undefined;
        const other = body.account ? null : await sealOtherDelivery(deps, { server: body.server, lines: body.lines } as OrderChange);
        if (body.account) {
          email = body.account.email.trim();
          details = { kind: 'account', email, name: body.account.name };
          secretEnc = await deps.secrets.encrypt(body.account.password);
          secretIndexes = [accountKeys!.passwordIndex!];
        } else {
          const sealed = other!;
          const shown = JSON.parse(sealed.columns.delivery_details as string) as ServiceStockDetails;
          details = shown;
          secretEnc = sealed.columns.delivery_secret_enc as string;
          secretIndexes = sealed.indexes;
        }
        const result = await deps.db.transaction().execute(async (trx) => {
          // Additions of stock of any pool take turns (decision 055).
          await lockStockAdditions(trx);
          const earlier = await findServiceStockIncludingDeleted(trx, id);
          if (earlier) {
            if (earlier.deleted_at) throw conflict('This stock item was deleted');
            return { row: earlier, replay: true };
          }
          const service = await trx
            .selectFrom('services')
            .select(['id', 'title', 'delivery_kind'])
            .where('id', '=', body.serviceId)
            .where('deleted_at', 'is', null)
            .executeTakeFirst();
          if (!service) throw badRequest('serviceId: no such service', [{ path: 'serviceId', message: 'no such service' }]);
          if (service.delivery_kind !== kind) {
            const message =
              service.delivery_kind === 'file'
                ? 'this service delivers a file, which is not kept in stock'
                : `this service delivers ${kindWords[service.delivery_kind]}, not ${kindWords[kind]}`;
            throw badRequest(`${kind}: ${message}`, [{ path: kind, message }]);
          }
          let overrode: unknown;
          if (accountKeys) {
            const check = duplicateCheck(await findKnownCredentials(trx, [accountKeys]), accountKeys);
            if (hasDuplicate(check)) {
              if (!override)
                throw new ApiError(
                  'duplicate_credentials',
                  'These credentials are already in stock or delivered to an order; send overrideDuplicates to add them anyway',
                  check,
                );
              overrode = check;
            }
          } else {
            await assertNoDuplicateSecrets(trx, NO_ORDER, other!, override);
            if (override) overrode = true;
          }
          const created = await insertServiceStock(
            trx,
            id,
            { serviceId: service.id, kind, details, email, secretEnc, secretIndexes, notes: body.notes ?? '', addedBy: user.id },
            await nextVersion(trx),
          );
          if (!created) throw conflict('This stock item id is taken');
          await recordAudit(trx, user, {
            action: 'service_stock.create',
            entity: 'service_stock',
            entityId: id,
            details: {
              serviceId: service.id,
              kind,
              ...(details.kind === 'lines'
                ? { lineCount: details.count }
                : details.kind === 'server'
                  ? { host: details.host, port: details.port, user: details.user }
                  : { email: details.email }),
              ...(overrode !== undefined && { overrodeDuplicates: overrode }),
            },
          });
          await watchStockLevel(trx);
          return { row: created, replay: false };
        });
        c.header('cache-control', 'no-store');
        return c.json(await toServiceStock(result.row, deps.secrets, 'admin'), result.replay ? 200 : 201);
      })
      .post('/preview', requireAdmin, validate('json', serviceStockImportPreviewBody), async (c) => {
        const { serviceId, text, split } = c.req.valid('json');
        const service = await stockedService(deps.db, serviceId);
        const planned = await planServiceStockImport(deps.db, deps, service.kind, parseServiceStockRows(service.kind, text, split));
        c.header('cache-control', 'no-store');
        return c.json(toImportPreview(service.id, service.kind, planned));
      })
      // eslint-disable-next-line max-lines-per-function -- over 80 lines once the formatter came (decision 223); to split (issue 34)
      .post('/batch', requireAdmin, validate('json', serviceStockImportBody), async (c) => {
        const body = c.req.valid('json');
        const user = c.get('user')!;
        const override = body.overrideDuplicates === true;
        const requestHash = await deps.secrets.blindIndex(`POST /service-stocks/batch ${canonicalJson({ ...body, id: undefined })}`);
        // Parsed, checked and sealed before the transaction (no encryption while the lock is held); the
        // duplicate checks run again under the lock, against stock as it is when the rows are written. A
        // refusal found here is given inside, after the id is looked up: a replay answers the first result
        // even when the service has gone since.
        let prepared: { kind: ServiceStockKind; raw: ReturnType<typeof parseServiceStockRows>; sealed: Map<number, string> } | undefined;
        let refusal: unknown;
        try {
          const kind = (await stockedService(deps.db, body.serviceId)).kind;
          const raw = parseServiceStockRows(kind, body.text, body.split);
          const before = await planServiceStockImport(deps.db, deps, kind, raw);
          const sealed = new Map(
            await Promise.all(before.filter((row) => row.item).map(async (row) => [row.row, await deps.secrets.encrypt(row.item!.secret)] as const)),
          );
          prepared = { kind, raw, sealed };
        } catch (error) {
          refusal = error;
        }
        let answer;
        try {
          answer = await deps.db.transaction().execute(async (trx) => {
            // Additions of stock of any pool take turns (decision 055), one add or a whole import.
            await lockStockAdditions(trx);
            return onceForKey(
              trx,
              user.id,
              `POST /service-stocks/batch ${body.id}`,
              async () => {
                if (!prepared) throw refusal;
                const { raw, sealed } = prepared;
                const service = await stockedService(trx, body.serviceId);
                if (service.kind !== prepared.kind) throw conflict("The service's delivery kind changed while importing; preview again");
                const planned = await planServiceStockImport(trx, deps, service.kind, raw);
                const blocking = planned.filter((row) => row.problems.some((problem) => !problem.overridable));
                if (blocking.length > 0) throw badRequest(describeProblems(blocking), { rows: toImportPreview(service.id, service.kind, blocking).rows });
                const duplicates = planned.filter((row) => row.problems.length > 0);
                if (duplicates.length > 0 && !override) {
                  throw new ApiError(
                    'duplicate_credentials',
                    describeProblems(duplicates, 'Send overrideDuplicates to import them anyway; nothing was imported.'),
                    {
                      rows: toImportPreview(service.id, service.kind, duplicates).rows,
                    },
                  );
                }
                const items = await Promise.all(
                  planned.map(async ({ row, item }) => ({
                    id: crypto.randomUUID(),
                    serviceId: service.id,
                    kind: service.kind,
                    details: item!.details,
                    email: item!.email,
                    secretEnc: sealed.get(row) ?? (await deps.secrets.encrypt(item!.secret)),
                    secretIndexes: item!.indexes,
                    notes: item!.notes,
                    addedBy: user.id,
                  })),
                );
                await insertServiceStocks(trx, items, await nextVersion(trx));
                const result: ServiceStockImportResult = {
                  id: body.id,
                  serviceId: service.id,
                  kind: service.kind,
                  imported: items.length,
                  overrodeDuplicates: override && duplicates.length > 0,
                };
                await recordAudit(trx, user, {
                  action: 'service_stock.import',
                  entity: 'service_stock',
                  entityId: body.id,
                  details: {
                    serviceId: service.id,
                    kind: service.kind,
                    count: items.length,
                    overrodeDuplicates: result.overrodeDuplicates,
                    ...(result.overrodeDuplicates && { duplicateRows: duplicates.length }),
                  },
                });
                await watchStockLevel(trx);
                return { status: 201, body: result };
              },
              requestHash,
            );
          });
        } catch (error) {
          if (error instanceof KeyReusedError)
            throw new ApiError('idempotency_mismatch', 'This import id was already used with other rows. Nothing was changed: send a new id for a new import.');
          throw error;
        }
        c.header('cache-control', 'no-store');
        return c.json(answer.body as ServiceStockImportResult, answer.replayed ? 200 : 201);
      })
      .post('/:id/withdraw', requireAdmin, validate('param', idParam), validate('json', withdrawServiceStockBody), async (c) => {
        const { id } = c.req.valid('param');
        const { version } = c.req.valid('json');
        const row = await deps.db.transaction().execute(async (trx) => {
          const current = await lockServiceStock(trx, id);
          if (!current) throw notFound('Stock item');
          assertVersion(current.version, version, 'stock item');
          if (current.status !== 'available')
            throw new ApiError('stock_unavailable', `This stock item is ${current.status}, not available: only an available item can be withdrawn.`);
          const updated = await setServiceStockStatus(trx, id, 'disabled', await nextVersion(trx));
          await recordAudit(trx, c.get('user'), {
            action: 'service_stock.withdraw',
            entity: 'service_stock',
            entityId: id,
            details: { serviceId: current.service_id },
          });
          await watchStockLevel(trx);
          return updated;
        });
        c.header('cache-control', 'no-store');
        return c.json(await toServiceStock(row, deps.secrets, 'admin'));
      })
  );
}
