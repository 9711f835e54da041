import type { Db } from "../../db/index";
import type { Character, PresetCharacterRow } from "../../db/schema";

/** Database access for characters, preset characters and groups. */
export class CharactersRepo {
  constructor(private readonly db: Db) {}

  /** The user's characters, oldest first. */
  listByUser(userId: string): Promise<Character[]> {
    return this.db
      .selectFrom("characters")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  }

  /** A character only when it belongs to `userId`. */
  findOwned(userId: string, id: string): Promise<Character | undefined> {
    return this.db
      .selectFrom("characters")
      .selectAll()
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
  }

  countByUser(userId: string): Promise<number> {
    return this.db
      .selectFrom("characters")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  }

  listPresets(): Promise<PresetCharacterRow[]> {
    return this.db.selectFrom("preset_characters").selectAll().orderBy("sort_order").execute();
  }

  findPreset(id: string): Promise<PresetCharacterRow | undefined> {
    return this.db.selectFrom("preset_characters").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /**
   * Inserts a character unless the user already has `limit` or more (checked in the same
   * transaction, so two concurrent requests cannot both pass the limit).
   * @returns false when the limit was reached.
   */
  async insertWithinLimit(character: Character, limit: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // A no-op update takes the user's row lock (PostgreSQL) so concurrent creations queue here.
      await trx
        .updateTable("users")
        .set((eb) => ({ character_limit: eb.ref("character_limit") }))
        .where("id", "=", character.user_id)
        .execute();
      const row = await trx
        .selectFrom("characters")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("user_id", "=", character.user_id)
        .executeTakeFirstOrThrow();
      if (Number(row.n) >= limit) return false;
      await trx.insertInto("characters").values(character).execute();
      return true;
    });
  }

  /** The user's groups with their members in position order. */
  async listGroups(userId: string) {
    const groups = await this.db
      .selectFrom("chat_groups")
      .select(["id", "created_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .execute();
    if (groups.length === 0) return [];
    const members = await this.db
      .selectFrom("chat_group_members")
      .innerJoin("characters", "characters.id", "chat_group_members.character_id")
      .select(["chat_group_members.group_id", "characters.id", "characters.name", "characters.photo"])
      .where(
        "chat_group_members.group_id",
        "in",
        groups.map((g) => g.id),
      )
      .orderBy("chat_group_members.position")
      .execute();
    return groups.map((g) => ({ id: g.id, members: members.filter((m) => m.group_id === g.id) }));
  }
}
