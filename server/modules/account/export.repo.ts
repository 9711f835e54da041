// Database access of "Take my data": the user's chats, characters and photos the export reads, and the exports table.
import type { Selectable } from "kysely";
import type { Db } from "../../db/index";
import type { ChatHistoryRow, DataExportsTable, User } from "../../db/schema";

/** One export of a user's data ("Take my data"), as stored. */
export type DataExportRow = Selectable<DataExportsTable>;

/** One chat of the user as the export writes it: a character's or a group's, with its members. */
export interface ExportChat {
  sessionId: string;
  /** The character id, or the group id. */
  chatKey: string;
  isGroup: boolean;
  createdAt: number;
}

/** The rows the data export reads and the export table it keeps ("Take my data"). */
export class ExportRepo {
  constructor(private readonly db: Db) {}

  insert(row: DataExportRow): Promise<unknown> {
    return this.db.insertInto("data_exports").values(row).execute();
  }

  /** The user's exports, newest first (at most `limit`). */
  listForUser(userId: string, limit: number): Promise<DataExportRow[]> {
    return this.db
      .selectFrom("data_exports")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
  }

  /** The export `id` when it is the user's, else undefined (one lookup by id and owner). */
  findForUser(userId: string, id: string): Promise<DataExportRow | undefined> {
    return this.db
      .selectFrom("data_exports")
      .selectAll()
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
  }

  find(id: string): Promise<DataExportRow | undefined> {
    return this.db.selectFrom("data_exports").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** Moves the export from status `from` to `fields` (with its status); false when it was not in `from`. */
  async update(id: string, from: string[], fields: Partial<DataExportRow>): Promise<boolean> {
    const result = await this.db
      .updateTable("data_exports")
      .set(fields)
      .where("id", "=", id)
      .where("status", "in", from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  delete(id: string): Promise<unknown> {
    return this.db.deleteFrom("data_exports").where("id", "=", id).execute();
  }

  /** Ready exports whose `expires_at` is at or before `now` (epoch ms). */
  expired(now: number): Promise<DataExportRow[]> {
    return this.db
      .selectFrom("data_exports")
      .selectAll()
      .where("status", "=", "ready")
      .where("expires_at", "<=", now)
      .execute();
  }

  /** Exports still queued or running that were created before `before` (epoch ms): lost jobs. */
  stalled(before: number): Promise<DataExportRow[]> {
    return this.db
      .selectFrom("data_exports")
      .selectAll()
      .where("status", "in", ["queued", "running"])
      .where("created_at", "<", before)
      .execute();
  }

  user(id: string): Promise<User | undefined> {
    return this.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  }

  planName(planId: string): Promise<string> {
    return this.db
      .selectFrom("plans")
      .select("name")
      .where("id", "=", planId)
      .executeTakeFirst()
      .then((row) => row?.name ?? "");
  }

  characters(userId: string) {
    return this.db
      .selectFrom("characters")
      .select(["id", "name", "photo", "created_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
  }

  /** Each of the user's groups with its members' names in order. */
  async groups(userId: string): Promise<Array<{ id: string; names: string[] }>> {
    const rows = await this.db
      .selectFrom("chat_groups")
      .leftJoin("chat_group_members", "chat_group_members.group_id", "chat_groups.id")
      .leftJoin("characters", "characters.id", "chat_group_members.character_id")
      .select(["chat_groups.id as id", "characters.name as name", "chat_group_members.position as position"])
      .where("chat_groups.user_id", "=", userId)
      .orderBy("chat_groups.created_at")
      .orderBy("chat_groups.id")
      .orderBy("chat_group_members.position")
      .execute();
    const groups = new Map<string, string[]>();
    for (const row of rows) {
      const names = groups.get(row.id) ?? [];
      if (row.name) names.push(row.name);
      groups.set(row.id, names);
    }
    return [...groups].map(([id, names]) => ({ id, names }));
  }

  async chats(userId: string): Promise<ExportChat[]> {
    const rows = await this.db
      .selectFrom("chat_sessions")
      .select(["id", "chat_key", "is_group", "created_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    return rows.map((r) => ({
      sessionId: r.id,
      chatKey: r.chat_key,
      isGroup: Boolean(r.is_group),
      createdAt: r.created_at,
    }));
  }

  /** One page of a chat's entries in order: those after `afterSeq`, at most `limit`. */
  historyPage(sessionId: string, afterSeq: number, limit: number): Promise<ChatHistoryRow[]> {
    return this.db
      .selectFrom("chat_history")
      .selectAll()
      .where("session_id", "=", sessionId)
      .where("seq", ">", afterSeq)
      .orderBy("seq")
      .limit(limit)
      .execute();
  }

  /** The reply swipes of `entryIds`, by entry, in position order. */
  async swipes(entryIds: string[]): Promise<Map<string, string[]>> {
    const byEntry = new Map<string, string[]>();
    if (entryIds.length === 0) return byEntry;
    const rows = await this.db
      .selectFrom("chat_reply_swipes")
      .select(["entry_id", "reply_message"])
      .where("entry_id", "in", entryIds)
      .orderBy("entry_id")
      .orderBy("position")
      .execute();
    for (const row of rows)
      byEntry.set(row.entry_id, [...(byEntry.get(row.entry_id) ?? []), row.reply_message]);
    return byEntry;
  }

  memories(userId: string) {
    return this.db
      .selectFrom("memories")
      .leftJoin("characters", "characters.id", "memories.character_id")
      .select(["memories.fact as fact", "memories.created_at as created_at", "characters.name as character"])
      .where("memories.user_id", "=", userId)
      .orderBy("memories.created_at")
      .execute();
  }

  checkinSettings(userId: string) {
    return this.db
      .selectFrom("checkin_settings")
      .leftJoin("characters", "characters.id", "checkin_settings.character_id")
      .select([
        "characters.name as character",
        "checkin_settings.enabled as enabled",
        "checkin_settings.time_zone as time_zone",
      ])
      .where("checkin_settings.user_id", "=", userId)
      .execute();
  }
}
