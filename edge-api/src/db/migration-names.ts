/**
 * The names of the migrations this version of the app knows, oldest first. Kept apart from the migrations'
 * code so that `/readyz`, which only compares names, does not put every migration and Kysely's schema
 * builder into the Workers bundle (decision 150). `migrate.ts` keys its record by exactly these names (the
 * type checker refuses a missing or extra one) and `migration-list.test.ts` checks them against `migrations/`.
 */
export const MIGRATION_NAMES = [
  '2026-11-21-2330_create_schema',
  '2026-11-21-2340_add_refresh_token_revoked_at',
  '2026-11-23-1900_create_data_keys',
  '2026-11-23-2310_idempotency_request_hash',
  '2026-11-23-2320_index_inline_images',
  '2026-11-23-2330_add_auth_confirmation',
  '2026-11-24-0000_index_stock_credentials',
  '2026-11-24-0010_create_stock_batches',
  '2026-11-24-0100_create_auth_one_time_tokens',
  '2026-11-24-0200_add_order_note_and_payment_proof',
  '2026-11-24-0300_auto_delivery_and_notifications',
  '2026-11-24-0400_warranty_and_replacements',
  '2026-11-24-0500_create_rate_limits',
  '2026-11-24-0600_create_credential_reveals',
  '2026-11-25-0100_create_push_subscriptions',
  '2026-11-25-0300_delivery_kinds',
  '2026-11-25-0500_service_stocks',
  '2026-11-26-0100_push_outbox_retries',
  '2026-11-26-0300_report_answers_without_passwords',
  '2026-11-26-0400_index_inline_wise_images',
  '2026-11-28-0100_create_payment_rails',
  '2026-11-29-0100_create_coupons',
  '2026-11-29-0200_auth_sign_in_codes',
  '2026-11-29-0300_create_tickets',
  '2026-11-29-0310_create_api_keys',
  '2026-11-29-0311_create_webhooks',
  '2026-11-29-0320_guest_order_tokens',
  '2026-11-29-0321_prices_for_regulars',
  '2026-11-29-0330_device_vaults',
  '2026-11-29-0340_keyset_order_indexes',
  '2026-11-29-0341_order_updated_index',
  '2026-11-29-0350_versions_from_a_sequence',
  '2026-11-29-0420_service_stock_batches',
  '2026-11-29-0440_keyset_list_indexes',
  '2026-11-29-0510_keyset_more_list_indexes',
  '2026-11-29-0520_sync_horizon_counts_writers_only',
] as const;

export type MigrationName = (typeof MIGRATION_NAMES)[number];

/** The names of the migrations this version of the app knows, oldest first. */
export const migrationNames = (): string[] => [...MIGRATION_NAMES];
