import type { Transaction } from 'kysely';
import type { NewServiceStock } from '../contract/service-stocks.ts';
import { hasDuplicate } from '../contract/wise-stocks.ts';
import { recordAudit } from '../db/audit.ts';
import { credentialsKeys, duplicateCheck, findKnownCredentials, type CredentialsKeys } from '../db/credentials.ts';
import type { Database, ServiceStockDetails, ServiceStockRow, UserRow } from '../db/schema.ts';
import { findServiceStockIncludingDeleted, insertServiceStock } from '../db/service-stocks.ts';
import { nextVersion } from '../db/versions.ts';
import { lockStockAdditions } from '../db/wise-stocks.ts';
import type { Deps } from '../deps.ts';
import { ApiError, badRequest, conflict } from '../errors.ts';
import type { OrderChange } from './deliver.ts';
import { assertNoDuplicateSecrets, sealOtherDelivery, type SealedDelivery } from './other-deliveries.ts';
import { watchStockLevel } from './stock-watch.ts';

/** No order has this id: the duplicate check of other kinds then compares with every order. */
const NO_ORDER = '00000000-0000-0000-0000-000000000000';

const kindWords: Record<string, string> = { account: 'an account', file: 'a file', server: 'a server login', lines: 'a list of lines' };

type Kind = ServiceStockRow['kind'];

/** One item sealed before the transaction: no encryption while rows are locked. */
interface SealedItem {
  kind: Kind;
  details: ServiceStockDetails;
  email: string | null;
  secretEnc: string;
  secretIndexes: string[];
  accountKeys?: CredentialsKeys;
  other: SealedDelivery | null;
}

async function sealItem(deps: Deps, body: NewServiceStock): Promise<SealedItem> {
  if (body.account) {
    const accountKeys = await credentialsKeys(deps.secrets.blindIndex, body.account.email, body.account.password);
    const email = body.account.email.trim();
    return {
      kind: 'account',
      details: { kind: 'account', email, name: body.account.name },
      email,
      secretEnc: await deps.secrets.encrypt(body.account.password),
      secretIndexes: [accountKeys.passwordIndex!],
      accountKeys,
      other: null,
    };
  }
  const other = (await sealOtherDelivery(deps, { server: body.server, lines: body.lines } as OrderChange))!;
  return {
    kind: body.server ? 'server' : 'lines',
    details: JSON.parse(other.columns.delivery_details as string) as ServiceStockDetails,
    email: null,
    secretEnc: other.columns.delivery_secret_enc as string,
    secretIndexes: other.indexes,
    other,
  };
}

/** The service takes items of this kind: 400 naming the kind's field otherwise. */
async function assertServiceTakes(trx: Transaction<Database>, serviceId: string, kind: Kind) {
  const service = await trx
    .selectFrom('services')
    .select(['id', 'delivery_kind'])
    .where('id', '=', serviceId)
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
}

/** 409 duplicate_credentials unless overridden; answers what was overridden, if anything. */
async function checkDuplicates(trx: Transaction<Database>, item: SealedItem, override: boolean): Promise<unknown> {
  if (item.accountKeys) {
    const check = duplicateCheck(await findKnownCredentials(trx, [item.accountKeys]), item.accountKeys);
    if (!hasDuplicate(check)) return undefined;
    if (!override)
      throw new ApiError(
        'duplicate_credentials',
        'These credentials are already in stock or delivered to an order; send overrideDuplicates to add them anyway',
        check,
      );
    return check;
  }
  await assertNoDuplicateSecrets(trx, NO_ORDER, item.other!, override);
  return override ? true : undefined;
}

const auditDetails = (details: ServiceStockDetails) =>
  details.kind === 'lines'
    ? { lineCount: details.count }
    : details.kind === 'server'
      ? { host: details.host, port: details.port, user: details.user }
      : { email: details.email };

/**
 * One item added to a service's stock (decision 072): sealed first, then under the additions lock its
 * service's kind and duplicates are checked (decision 055); a replayed id answers the item it made.
 */
export async function addServiceStock(deps: Deps, user: UserRow, body: NewServiceStock): Promise<{ row: ServiceStockRow; replay: boolean }> {
  const id = body.id ?? crypto.randomUUID();
  const item = await sealItem(deps, body);
  return deps.db.transaction().execute(async (trx) => {
    // Additions of stock of any pool take turns (decision 055).
    await lockStockAdditions(trx);
    const earlier = await findServiceStockIncludingDeleted(trx, id);
    if (earlier) {
      if (earlier.deleted_at) throw conflict('This stock item was deleted');
      return { row: earlier, replay: true };
    }
    await assertServiceTakes(trx, body.serviceId, item.kind);
    const overrode = await checkDuplicates(trx, item, body.overrideDuplicates === true);
    const { kind, details, email, secretEnc, secretIndexes } = item;
    const fields = { serviceId: body.serviceId, kind, details, email, secretEnc, secretIndexes, notes: body.notes ?? '', addedBy: user.id };
    const created = await insertServiceStock(trx, id, fields, await nextVersion(trx));
    if (!created) throw conflict('This stock item id is taken');
    await recordAudit(trx, user, {
      action: 'service_stock.create',
      entity: 'service_stock',
      entityId: id,
      details: { serviceId: body.serviceId, kind, ...auditDetails(details), ...(overrode !== undefined && { overrodeDuplicates: overrode }) },
    });
    await watchStockLevel(trx);
    return { row: created, replay: false };
  });
}
