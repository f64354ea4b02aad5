import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod';
import type { ServiceStockImportResult, ServiceStockImportRow, ServiceStockKind, serviceStockImportBody } from '../contract/service-stocks.ts';
import { recordAudit } from '../db/audit.ts';
import { KeyReusedError, onceForKey } from '../db/idempotency.ts';
import type { Database, UserRow } from '../db/schema.ts';
import { insertServiceStockBatch } from '../db/service-stock-batches.ts';
import { insertServiceStocks } from '../db/service-stocks.ts';
import { nextVersion } from '../db/versions.ts';
import { lockStockAdditions } from '../db/wise-stocks.ts';
import type { Deps } from '../deps.ts';
import { ApiError, badRequest, conflict } from '../errors.ts';
import { canonicalJson } from './deliver.ts';
import { parseServiceStockRows, planServiceStockImport, toImportPreview } from './service-stock-import.ts';
import { watchStockLevel } from './stock-watch.ts';

type ImportBody = z.infer<typeof serviceStockImportBody>;
type Planned = Awaited<ReturnType<typeof planServiceStockImport>>;
interface Prepared {
  kind: ServiceStockKind;
  raw: ReturnType<typeof parseServiceStockRows>;
  sealed: Map<number, string>;
}

/** The service stock is added to, of a kind kept in stock: 400 naming serviceId otherwise. */
export async function stockedService(db: Kysely<Database> | Transaction<Database>, serviceId: string) {
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

/** Parsed, checked and sealed before the transaction: no encryption while the lock is held. */
async function prepare(deps: Deps, body: ImportBody): Promise<Prepared> {
  const kind = (await stockedService(deps.db, body.serviceId)).kind;
  const raw = parseServiceStockRows(kind, body.text, body.split);
  const before = await planServiceStockImport(deps.db, deps, kind, raw);
  const sealed = new Map(
    await Promise.all(before.filter((row) => row.item).map(async (row) => [row.row, await deps.secrets.encrypt(row.item!.secret)] as const)),
  );
  return { kind, raw, sealed };
}

/** 400 for rows that can never be imported; 409 for duplicates of stock or orders unless overridden. */
function assertImportable(serviceId: string, kind: ServiceStockKind, planned: Planned, override: boolean) {
  const blocking = planned.filter((row) => row.problems.some((problem) => !problem.overridable));
  if (blocking.length > 0) throw badRequest(describeProblems(blocking), { rows: toImportPreview(serviceId, kind, blocking).rows });
  const duplicates = planned.filter((row) => row.problems.length > 0);
  if (duplicates.length > 0 && !override) {
    throw new ApiError('duplicate_credentials', describeProblems(duplicates, 'Send overrideDuplicates to import them anyway; nothing was imported.'), {
      rows: toImportPreview(serviceId, kind, duplicates).rows,
    });
  }
  return duplicates.length;
}

/** Writes the batch and its items, under the additions lock, once the rows are checked again. */
async function writeImport(trx: Transaction<Database>, deps: Deps, user: UserRow, body: ImportBody, prepared: Prepared): Promise<ServiceStockImportResult> {
  const override = body.overrideDuplicates === true;
  const service = await stockedService(trx, body.serviceId);
  if (service.kind !== prepared.kind) throw conflict("The service's delivery kind changed while importing; preview again");
  const planned = await planServiceStockImport(trx, deps, service.kind, prepared.raw);
  const duplicates = assertImportable(service.id, service.kind, planned, override);
  const items = await Promise.all(
    planned.map(async ({ row, item }) => ({
      id: crypto.randomUUID(),
      serviceId: service.id,
      kind: service.kind,
      details: item!.details,
      email: item!.email,
      secretEnc: prepared.sealed.get(row) ?? (await deps.secrets.encrypt(item!.secret)),
      secretIndexes: item!.indexes,
      notes: item!.notes,
      addedBy: user.id,
      batchId: body.id,
    })),
  );
  const label = body.label?.trim() || `${items.length} ${items.length === 1 ? 'item' : 'items'} imported ${deps.clock().toISOString().slice(0, 10)}`;
  const userName = user.display_name || user.email;
  await insertServiceStockBatch(trx, {
    id: body.id,
    serviceId: service.id,
    kind: service.kind,
    label,
    addedBy: user.id,
    userName,
    userEmail: user.email,
    itemCount: items.length,
  });
  await insertServiceStocks(trx, items, await nextVersion(trx));
  const overrodeDuplicates = override && duplicates > 0;
  await recordAudit(trx, user, {
    action: 'service_stock.import',
    entity: 'service_stock',
    entityId: body.id,
    details: {
      serviceId: service.id,
      kind: service.kind,
      count: items.length,
      label,
      overrodeDuplicates,
      ...(overrodeDuplicates && { duplicateRows: duplicates }),
    },
  });
  await watchStockLevel(trx);
  return { id: body.id, serviceId: service.id, kind: service.kind, imported: items.length, overrodeDuplicates };
}

/**
 * A bulk add to a service's stock (decision 075): all rows or none, once per import id, and one batch
 * (decision 228). The duplicate checks run again under the lock, against stock as it is when the rows are
 * written. A refusal found before the lock is given inside, after the id is looked up: a replay answers the
 * first result even when the service has gone since.
 */
export async function importServiceStock(deps: Deps, user: UserRow, body: ImportBody): Promise<{ result: ServiceStockImportResult; replayed: boolean }> {
  const requestHash = await deps.secrets.blindIndex(`POST /service-stocks/batch ${canonicalJson({ ...body, id: undefined })}`);
  let prepared: Prepared | undefined;
  let refusal: unknown;
  try {
    prepared = await prepare(deps, body);
  } catch (error) {
    refusal = error;
  }
  try {
    const answer = await deps.db.transaction().execute(async (trx) => {
      // Additions of stock of any pool take turns (decision 055), one add or a whole import.
      await lockStockAdditions(trx);
      const write = async () => {
        if (!prepared) throw refusal;
        return { status: 201, body: await writeImport(trx, deps, user, body, prepared) };
      };
      return onceForKey(trx, user.id, `POST /service-stocks/batch ${body.id}`, write, requestHash);
    });
    return { result: answer.body as ServiceStockImportResult, replayed: answer.replayed };
  } catch (error) {
    if (error instanceof KeyReusedError)
      throw new ApiError('idempotency_mismatch', 'This import id was already used with other rows. Nothing was changed: send a new id for a new import.');
    throw error;
  }
}
