// The model connections' tables: connections, assignments and the one-row version counter.
import type { Insertable, Selectable, Transaction } from "kysely";
import type { Db } from "../../db/index";
import type { Database, ModelConnectionsTable } from "../../db/schema";

/** One stored connection (its API key encrypted). */
export type ConnectionRow = Selectable<ModelConnectionsTable>;
/** One assignment: scope "default" (target ""), "plan" or "character". */
export interface AssignmentRow {
  scope: string;
  target_id: string;
  connection_id: string;
}

/** Database access of the model connections (server/db/migrations/models.ts). */
export class ModelsRepo {
  constructor(private readonly db: Db) {}

  /** Every connection, oldest first. */
  connections(): Promise<ConnectionRow[]> {
    return this.db.selectFrom("model_connections").selectAll().orderBy("created_at").orderBy("id").execute();
  }

  find(id: string): Promise<ConnectionRow | undefined> {
    return this.db.selectFrom("model_connections").selectAll().where("id", "=", id).executeTakeFirst();
  }

  assignments(): Promise<AssignmentRow[]> {
    return this.db.selectFrom("model_assignments").selectAll().execute();
  }

  /** The counter bumped on every change (0 before any). */
  async version(): Promise<number> {
    const row = await this.db
      .selectFrom("model_settings")
      .select("version")
      .where("id", "=", 1)
      .executeTakeFirst();
    return Number(row?.version ?? 0);
  }

  /** Inserts a connection and bumps the version. */
  async insert(row: Insertable<ModelConnectionsTable>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto("model_connections").values(row).execute();
      await bump(trx);
    });
  }

  /** Updates a connection and bumps the version. @returns whether it existed. */
  async update(id: string, fields: Partial<Insertable<ModelConnectionsTable>>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable("model_connections")
        .set(fields)
        .where("id", "=", id)
        .executeTakeFirst();
      await bump(trx);
      return Number(result.numUpdatedRows) > 0;
    });
  }

  /** Deletes a connection and its assignments, bumps the version. @returns whether it existed. */
  async remove(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("model_assignments").where("connection_id", "=", id).execute();
      const result = await trx.deleteFrom("model_connections").where("id", "=", id).executeTakeFirst();
      await bump(trx);
      return Number(result.numDeletedRows) > 0;
    });
  }

  /** Sets (or with null clears) the connection of one scope and target, bumps the version. */
  async assign(scope: string, targetId: string, connectionId: string | null): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom("model_assignments")
        .where("scope", "=", scope)
        .where("target_id", "=", targetId)
        .execute();
      if (connectionId) {
        await trx
          .insertInto("model_assignments")
          .values({ scope, target_id: targetId, connection_id: connectionId })
          .execute();
      }
      await bump(trx);
    });
  }

  /**
   * Claims the one-time seeding (seeded 0 → 1, atomic: one instance of several wins).
   * @returns true for the caller that should seed.
   */
  async claimSeeding(): Promise<boolean> {
    const result = await this.db
      .updateTable("model_settings")
      .set({ seeded: 1 })
      .where("id", "=", 1)
      .where("seeded", "=", 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Writes one line of the admin console's audit log. */
  async audit(row: Insertable<Database["admin_audit"]>): Promise<void> {
    await this.db.insertInto("admin_audit").values(row).execute();
  }

  plans(): Promise<Array<{ id: string; name: string }>> {
    return this.db.selectFrom("plans").select(["id", "name"]).orderBy("sort_order").execute();
  }

  presetCharacters(): Promise<Array<{ id: string; name: string }>> {
    return this.db.selectFrom("preset_characters").select(["id", "name"]).orderBy("sort_order").execute();
  }

  async planExists(id: string): Promise<boolean> {
    return Boolean(await this.db.selectFrom("plans").select("id").where("id", "=", id).executeTakeFirst());
  }

  async presetExists(id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom("preset_characters")
      .select("id")
      .where("id", "=", id)
      .executeTakeFirst();
    return Boolean(row);
  }
}

/** Bumps the version counter inside `trx` (every instance reloads on seeing it change). */
async function bump(trx: Transaction<Database>): Promise<void> {
  await trx
    .updateTable("model_settings")
    .set((eb) => ({ version: eb("version", "+", 1) }))
    .where("id", "=", 1)
    .execute();
}
