// The schema of the model connections chosen in the admin console (product.md §9): connections, assignments, version.
import type { Kysely, Migration } from "kysely";

/**
 * The model connections' tables: `model_connections` (an endpoint or a GGUF file, with its
 * generation settings and its API key encrypted), `model_assignments` (which connection answers
 * by default, per plan, per preset character) and `model_settings`, one row whose `version` is
 * bumped on every change so every instance notices it (and whose `seeded` says the environment's
 * model became the first connection once).
 */
export const modelMigrations: Record<string, Migration> = {
  "0022_model_connections": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("model_connections")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("preset", "text", (c) => c.notNull())
        .addColumn("base_url", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("model", "text", (c) => c.notNull())
        .addColumn("api_key_encrypted", "text", (c) => c.notNull().defaultTo(""))
        .addColumn("max_tokens", "integer", (c) => c.notNull())
        .addColumn("temperature", "real", (c) => c.notNull())
        .addColumn("context_size", "integer", (c) => c.notNull())
        .addColumn("created_at", "bigint", (c) => c.notNull())
        .addColumn("updated_at", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("model_assignments")
        .addColumn("scope", "text", (c) => c.notNull())
        .addColumn("target_id", "text", (c) => c.notNull())
        .addColumn("connection_id", "text", (c) =>
          c.notNull().references("model_connections.id").onDelete("cascade"),
        )
        .addPrimaryKeyConstraint("model_assignments_pk", ["scope", "target_id"])
        .execute();
      await db.schema
        .createTable("model_settings")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("version", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("seeded", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db
        .insertInto("model_settings" as never)
        .values({ id: 1, version: 0, seeded: 0 } as never)
        .execute();
    },
  },
};
