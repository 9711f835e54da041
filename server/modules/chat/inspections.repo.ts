// The prompt inspector's storage: what each reply version's prompt was made of, as bounded JSON beside the reply.

import { sql } from "kysely";
import type { PromptInspection } from "../../../common/prompt-inspection";
import type { Db } from "../../db/index";

/** Longest inspection stored, characters of JSON (the lorebook list is cut past it; counts stay). */
export const INSPECTION_MAX_CHARS = 64 * 1024;
/** Longest lorebook key kept in an inspection, characters. */
const KEY_CHARS = 40;
/** Longest text of a recalled message kept in an inspection, characters (the inspector shows a few lines). */
const RECALLED_TEXT_CHARS = 300;

const cut = (text: string | undefined, max: number) =>
  text === undefined || text.length <= max ? text : `${text.slice(0, max - 1)}…`;

/**
 * The inspection as stored: JSON of at most `max` characters. Long keys and recalled texts are
 * cut; when it is still too long, recalled messages are left out from the end, then lorebook
 * entries (`truncated` set); the parts, token counts and memory's counts are always kept.
 */
export function boundedInspection(inspection: PromptInspection, max = INSPECTION_MAX_CHARS): string {
  if (inspection.recall) {
    const messages = inspection.recall.messages.map((m) => ({
      ...m,
      text: cut(m.text, RECALLED_TEXT_CHARS)!,
    }));
    let recalled = messages.length;
    inspection = { ...inspection, recall: { ...inspection.recall, messages } };
    while (JSON.stringify(inspection).length > max && recalled > 0) {
      recalled = Math.floor(recalled / 2);
      inspection = {
        ...inspection,
        recall: { ...inspection.recall!, messages: messages.slice(0, recalled) },
      };
    }
  }
  const lore = inspection.lore.map((fired) => ({
    ...fired,
    ...(fired.key === undefined ? {} : { key: cut(fired.key, KEY_CHARS) }),
    ...(fired.secondaryKey === undefined ? {} : { secondaryKey: cut(fired.secondaryKey, KEY_CHARS) }),
  }));
  let kept = lore.length;
  let json = JSON.stringify({ ...inspection, lore });
  while (json.length > max && kept > 0) {
    kept = Math.floor(kept / 2);
    json = JSON.stringify({ ...inspection, lore: lore.slice(0, kept), truncated: true });
  }
  return json;
}

/** Database access of `prompt_inspections` (rows go with their history entry: the foreign key cascades). */
export class InspectionsRepo {
  constructor(private readonly db: Db) {}

  /**
   * Stores the inspection of the reply version `swipeIndex` of entry `entryId`, replacing
   * one stored before (a continuation's prompt replaces the one it continued). Nothing is stored
   * when the entry was deleted meanwhile: one statement inserts from the entry's row when it exists.
   */
  async save(entryId: string, swipeIndex: number, inspection: PromptInspection, now: number): Promise<void> {
    const row = { inspection: boundedInspection(inspection), created_at: now };
    await this.db
      .insertInto("prompt_inspections")
      .columns(["entry_id", "swipe_index", "inspection", "created_at"])
      .expression(
        this.db
          .selectFrom("chat_history")
          .select([
            "id",
            sql<number>`cast(${swipeIndex} as integer)`.as("swipe_index"),
            sql<string>`cast(${row.inspection} as text)`.as("inspection"),
            sql<number>`cast(${now} as bigint)`.as("created_at"),
          ])
          .where("id", "=", entryId),
      )
      .onConflict((oc) => oc.columns(["entry_id", "swipe_index"]).doUpdateSet(row))
      .execute();
  }

  /** The inspection of an entry's reply version, or null when none was stored. */
  async find(entryId: string, swipeIndex: number): Promise<PromptInspection | null> {
    const row = await this.db
      .selectFrom("prompt_inspections")
      .select("inspection")
      .where("entry_id", "=", entryId)
      .where("swipe_index", "=", swipeIndex)
      .executeTakeFirst();
    return row ? (JSON.parse(row.inspection) as PromptInspection) : null;
  }
}
