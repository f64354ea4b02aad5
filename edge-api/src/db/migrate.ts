import type { Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { MigrationName } from './migration-names.ts';
import * as createSchema from '../../../migrations/2026-11-21-2330_create_schema.ts';
import * as addRefreshTokenRevokedAt from '../../../migrations/2026-11-21-2340_add_refresh_token_revoked_at.ts';
import * as createDataKeys from '../../../migrations/2026-11-23-1900_create_data_keys.ts';
import * as idempotencyRequestHash from '../../../migrations/2026-11-23-2310_idempotency_request_hash.ts';
import * as indexInlineImages from '../../../migrations/2026-11-23-2320_index_inline_images.ts';
import * as addAuthConfirmation from '../../../migrations/2026-11-23-2330_add_auth_confirmation.ts';
import * as indexStockCredentials from '../../../migrations/2026-11-24-0000_index_stock_credentials.ts';
import * as createStockBatches from '../../../migrations/2026-11-24-0010_create_stock_batches.ts';
import * as createAuthOneTimeTokens from '../../../migrations/2026-11-24-0100_create_auth_one_time_tokens.ts';
import * as addOrderNoteAndPaymentProof from '../../../migrations/2026-11-24-0200_add_order_note_and_payment_proof.ts';
import * as autoDeliveryAndNotifications from '../../../migrations/2026-11-24-0300_auto_delivery_and_notifications.ts';
import * as warrantyAndReplacements from '../../../migrations/2026-11-24-0400_warranty_and_replacements.ts';
import * as createRateLimits from '../../../migrations/2026-11-24-0500_create_rate_limits.ts';
import * as createCredentialReveals from '../../../migrations/2026-11-24-0600_create_credential_reveals.ts';
import * as createPushSubscriptions from '../../../migrations/2026-11-25-0100_create_push_subscriptions.ts';
import * as deliveryKinds from '../../../migrations/2026-11-25-0300_delivery_kinds.ts';
import * as serviceStocks from '../../../migrations/2026-11-25-0500_service_stocks.ts';
import * as pushOutboxRetries from '../../../migrations/2026-11-26-0100_push_outbox_retries.ts';
import * as reportAnswersWithoutPasswords from '../../../migrations/2026-11-26-0300_report_answers_without_passwords.ts';
import * as indexInlineWiseImages from '../../../migrations/2026-11-26-0400_index_inline_wise_images.ts';
import * as createPaymentRails from '../../../migrations/2026-11-28-0100_create_payment_rails.ts';
import * as createCoupons from '../../../migrations/2026-11-29-0100_create_coupons.ts';
import * as authSignInCodes from '../../../migrations/2026-11-29-0200_auth_sign_in_codes.ts';
import * as createTickets from '../../../migrations/2026-11-29-0300_create_tickets.ts';
import * as createApiKeys from '../../../migrations/2026-11-29-0310_create_api_keys.ts';
import * as createWebhooks from '../../../migrations/2026-11-29-0311_create_webhooks.ts';
import * as guestOrderTokens from '../../../migrations/2026-11-29-0320_guest_order_tokens.ts';
import * as pricesForRegulars from '../../../migrations/2026-11-29-0321_prices_for_regulars.ts';
import * as deviceVaults from '../../../migrations/2026-11-29-0330_device_vaults.ts';
import * as keysetOrderIndexes from '../../../migrations/2026-11-29-0340_keyset_order_indexes.ts';
import * as orderUpdatedIndex from '../../../migrations/2026-11-29-0341_order_updated_index.ts';
import * as versionsFromASequence from '../../../migrations/2026-11-29-0350_versions_from_a_sequence.ts';
import * as serviceStockBatches from '../../../migrations/2026-11-29-0420_service_stock_batches.ts';
import * as keysetListIndexes from '../../../migrations/2026-11-29-0440_keyset_list_indexes.ts';
import * as keysetMoreListIndexes from '../../../migrations/2026-11-29-0510_keyset_more_list_indexes.ts';
import * as syncHorizonCountsWritersOnly from '../../../migrations/2026-11-29-0520_sync_horizon_counts_writers_only.ts';

// Listed by hand so the Workers bundle needs no file system; add each new migration here and in migration-names.ts.
const migrations: Record<MigrationName, Migration> = {
  '2026-11-21-2330_create_schema': createSchema,
  '2026-11-21-2340_add_refresh_token_revoked_at': addRefreshTokenRevokedAt,
  '2026-11-23-1900_create_data_keys': createDataKeys,
  '2026-11-23-2310_idempotency_request_hash': idempotencyRequestHash,
  '2026-11-23-2320_index_inline_images': indexInlineImages,
  '2026-11-23-2330_add_auth_confirmation': addAuthConfirmation,
  '2026-11-24-0000_index_stock_credentials': indexStockCredentials,
  '2026-11-24-0010_create_stock_batches': createStockBatches,
  '2026-11-24-0100_create_auth_one_time_tokens': createAuthOneTimeTokens,
  '2026-11-24-0200_add_order_note_and_payment_proof': addOrderNoteAndPaymentProof,
  '2026-11-24-0300_auto_delivery_and_notifications': autoDeliveryAndNotifications,
  '2026-11-24-0400_warranty_and_replacements': warrantyAndReplacements,
  '2026-11-24-0500_create_rate_limits': createRateLimits,
  '2026-11-24-0600_create_credential_reveals': createCredentialReveals,
  '2026-11-25-0100_create_push_subscriptions': createPushSubscriptions,
  '2026-11-25-0300_delivery_kinds': deliveryKinds,
  '2026-11-25-0500_service_stocks': serviceStocks,
  '2026-11-26-0100_push_outbox_retries': pushOutboxRetries,
  '2026-11-26-0300_report_answers_without_passwords': reportAnswersWithoutPasswords,
  '2026-11-26-0400_index_inline_wise_images': indexInlineWiseImages,
  '2026-11-28-0100_create_payment_rails': createPaymentRails,
  '2026-11-29-0100_create_coupons': createCoupons,
  '2026-11-29-0200_auth_sign_in_codes': authSignInCodes,
  '2026-11-29-0300_create_tickets': createTickets,
  '2026-11-29-0310_create_api_keys': createApiKeys,
  '2026-11-29-0311_create_webhooks': createWebhooks,
  '2026-11-29-0320_guest_order_tokens': guestOrderTokens,
  '2026-11-29-0321_prices_for_regulars': pricesForRegulars,
  '2026-11-29-0330_device_vaults': deviceVaults,
  '2026-11-29-0340_keyset_order_indexes': keysetOrderIndexes,
  '2026-11-29-0341_order_updated_index': orderUpdatedIndex,
  '2026-11-29-0350_versions_from_a_sequence': versionsFromASequence,
  '2026-11-29-0420_service_stock_batches': serviceStockBatches,
  '2026-11-29-0440_keyset_list_indexes': keysetListIndexes,
  '2026-11-29-0510_keyset_more_list_indexes': keysetMoreListIndexes,
  '2026-11-29-0520_sync_horizon_counts_writers_only': syncHorizonCountsWritersOnly,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on any database shape
export async function migrateToLatest(db: Kysely<any>, options: { schema?: string } = {}): Promise<void> {
  await migrateTo(db, undefined, options);
}

/** Up to and including `name` (a restore brings an empty database to its backup's schema first); undefined: the latest. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on any database shape
export async function migrateTo(db: Kysely<any>, name: string | undefined, options: { schema?: string } = {}): Promise<void> {
  // A database holding several schemas (tests, benchmarks) needs the migration tables named in the
  // right one: without it Kysely finds another schema's lock table and skips creating its own.
  const migrator = new Migrator({ db, provider, migrationTableSchema: options.schema });
  const { error, results } = name === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(name);
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
