// The schema migrations registry: every area's migrations, run at start on SQLite and PostgreSQL, and dropping all tables for tests.
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from "kysely";
import { signInMigrations } from "./migrations/0002-accounts";
import { characterCardMigrations } from "./migrations/0003-character-cards";
import { clientMessageIdMigrations } from "./migrations/0004-client-message-ids";
import { memoryMigrations } from "./migrations/0005-memory";
import { quotaMigrations } from "./migrations/0006-quotas";
import { imageJobMigrations } from "./migrations/0008-images-jobs";
import { paymentsAdminMigrations } from "./migrations/0009-payments-admin";
import { ageConfirmationMigrations } from "./migrations/0010-age-confirmation";
import { sessionSecurityMigrations } from "./migrations/0011-session-security";
import { quotaAccountingMigrations } from "./migrations/0012-quota-accounting";
import { pendingReplyMigrations } from "./migrations/0013-pending-replies";
import { factBatchMigrations } from "./migrations/0014-fact-batches";
import { lorebookMigrations } from "./migrations/0015-lorebooks";
import { checkinMigrations } from "./migrations/0016-checkins";
import { memberSinceMigrations } from "./migrations/0017-member-since";
import { swipesAndEditsMigrations } from "./migrations/0018-swipes-and-edits";
import { dataExportMigrations } from "./migrations/0019-data-exports";
import { uiLanguageMigrations } from "./migrations/0020-ui-language";
import { replyOwnerMigrations } from "./migrations/0021-reply-owner";
import { recallByChatMigrations } from "./migrations/0038-recall-by-chat";
import { accountsMigrations } from "./migrations/accounts";
import { characterGenerationMigrations } from "./migrations/character-generation";
import { initialMigrations } from "./migrations/initial";
import { inspectionMigrations } from "./migrations/inspections";
import { modelMigrations } from "./migrations/models";
import { recallMigrations } from "./migrations/recall";
import { recallVectorMigrations } from "./migrations/recall-vectors";
import { searchMigrations } from "./migrations/search";
import { siteSettingsMigrations } from "./migrations/site-settings";
import { swipeNameMigrations } from "./migrations/swipe-names";

/**
 * Schema migrations, in code so they ship with the server and run at start on SQLite and on
 * PostgreSQL alike (only portable column types: text, integer, bigint).
 */
const migrations: Record<string, Migration> = {
  ...initialMigrations,
  ...signInMigrations,
  ...characterCardMigrations,
  ...clientMessageIdMigrations,
  ...memoryMigrations,
  ...quotaMigrations,
  ...imageJobMigrations,
  ...paymentsAdminMigrations,
  ...ageConfirmationMigrations,
  ...sessionSecurityMigrations,
  ...quotaAccountingMigrations,
  ...pendingReplyMigrations,
  ...factBatchMigrations,
  ...lorebookMigrations,
  ...checkinMigrations,
  ...memberSinceMigrations,
  ...swipesAndEditsMigrations,
  ...dataExportMigrations,
  ...uiLanguageMigrations,
  ...replyOwnerMigrations,
  ...accountsMigrations,
  ...modelMigrations,
  ...inspectionMigrations,
  ...searchMigrations,
  ...characterGenerationMigrations,
  ...swipeNameMigrations,
  ...recallMigrations,
  ...recallByChatMigrations,
  ...recallVectorMigrations,
  ...siteSettingsMigrations,
};

class InlineProvider implements MigrationProvider {
  constructor(private readonly extra: Record<string, Migration>) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return { ...migrations, ...this.extra };
  }
}

/** The names of every migration this code has, sorted (a backup made by a newer version has others). */
export function knownMigrationNames(): string[] {
  return Object.keys(migrations).sort();
}

/**
 * Brings the schema up to date. Safe to call at every start and from several processes
 * (Kysely's migrator takes a lock).
 * @param extra migrations run besides this code's (tests: one that fails).
 * @throws Error with the failing migration's name when one fails.
 */
export async function migrateToLatest(
  db: Kysely<unknown>,
  extra: Record<string, Migration> = {},
): Promise<void> {
  // Migrations of separate features are independent: a database that ran a later one first (a
  // build of one feature) still takes an earlier-named one added after it.
  const migrator = new Migrator({ db, provider: new InlineProvider(extra), allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
}

/** Drops every table (tests only: gives each PostgreSQL test run a clean schema). */
export async function dropAll(db: Kysely<unknown>): Promise<void> {
  await sql`drop schema if exists public cascade`.execute(db);
  await sql`create schema public`.execute(db);
}
