// Database access for characters, preset characters and groups.
import type { Insertable, Updateable } from "kysely";
import type { Db } from "../../db/index";
import type { Character, CharactersTable, PresetCharacterRow } from "../../db/schema";
import { charactersOfUser, findOwnedCharacter } from "../conversation/character-queries";

export type NewCharacter = Insertable<CharactersTable>;

/** Database access for characters, preset characters and groups. */
export class CharactersRepo {
  constructor(private readonly db: Db) {}

  /** The user's characters, oldest first. */
  listByUser(userId: string): Promise<Character[]> {
    return charactersOfUser(this.db, userId).execute();
  }

  /** A character only when it belongs to `userId`. */
  findOwned(userId: string, id: string): Promise<Character | undefined> {
    return findOwnedCharacter(this.db, userId, id);
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
  async insertWithinLimit(character: NewCharacter, limit: number): Promise<boolean> {
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

  async updateOwned(userId: string, id: string, patch: Updateable<CharactersTable>): Promise<void> {
    await this.db
      .updateTable("characters")
      .set(patch)
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .execute();
  }

  /**
   * Deletes a character unless it is the user's last one, in one transaction.
   * @returns "deleted", "last" or "missing".
   */
  async deleteOwnedUnlessLast(userId: string, id: string): Promise<"deleted" | "last" | "missing"> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable("users")
        .set((eb) => ({ character_limit: eb.ref("character_limit") }))
        .where("id", "=", userId)
        .execute();
      const rows = await trx.selectFrom("characters").select("id").where("user_id", "=", userId).execute();
      if (!rows.some((r) => r.id === id)) return "missing";
      if (rows.length <= 1) return "last";
      await trx
        .deleteFrom("chat_sessions")
        .where("user_id", "=", userId)
        .where("chat_key", "=", id)
        .execute();
      await trx.deleteFrom("characters").where("id", "=", id).execute();
      return "deleted";
    });
  }

  languages() {
    return this.db.selectFrom("languages").selectAll().orderBy("sort_order").execute();
  }

  voices() {
    return this.db.selectFrom("voices").selectAll().orderBy("language_code").orderBy("sex").execute();
  }

  findVoice(name: string) {
    return this.db.selectFrom("voices").selectAll().where("name", "=", name).executeTakeFirst();
  }

  findLanguage(id: string) {
    return this.db.selectFrom("languages").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** Deletes a group of the user with its chat. @returns false when it is not the user's. */
  async deleteOwnedGroup(userId: string, groupId: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .deleteFrom("chat_groups")
        .where("id", "=", groupId)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      await trx
        .deleteFrom("chat_sessions")
        .where("user_id", "=", userId)
        .where("chat_key", "=", groupId)
        .execute();
      return true;
    });
  }
}
