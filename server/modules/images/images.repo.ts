// Database access of image jobs and of the picture fields of chat history.
import type { Db } from "../../db/index";
import type { ChatHistoryRow, ImageJob } from "../../db/schema";

/** Database access for image jobs and the image fields of chat history. */
export class ImagesRepo {
  constructor(private readonly db: Db) {}

  /**
   * Stores the entry (image loading 1) and its queued job in one transaction, so a job never
   * exists without its entry nor an entry waits on a job that was never stored.
   */
  async insertEntryWithJob(
    entry: ChatHistoryRow | undefined,
    job: ImageJob,
    entryPatch?: Partial<ChatHistoryRow>,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (entry) await trx.insertInto("chat_history").values(entry).execute();
      if (entryPatch)
        await trx.updateTable("chat_history").set(entryPatch).where("id", "=", job.entry_id).execute();
      await trx.insertInto("image_jobs").values(job).execute();
    });
  }

  async insertEntry(entry: ChatHistoryRow): Promise<void> {
    await this.db.insertInto("chat_history").values(entry).execute();
  }

  async updateEntry(id: string, patch: Partial<Omit<ChatHistoryRow, "id" | "session_id">>): Promise<void> {
    await this.db.updateTable("chat_history").set(patch).where("id", "=", id).execute();
  }

  entry(id: string): Promise<ChatHistoryRow | undefined> {
    return this.db.selectFrom("chat_history").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** The newest job of an entry, if any. */
  jobForEntry(entryId: string): Promise<ImageJob | undefined> {
    return this.db
      .selectFrom("image_jobs")
      .selectAll()
      .where("entry_id", "=", entryId)
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * The photo's file name (under characters/) of the character `characterId` when it is the user's
   * own; undefined for another user's character, a group id, or no photo (the picture's
   * reference comes from the database, never from a client).
   */
  async characterPhoto(userId: string, characterId: string): Promise<string | undefined> {
    if (!characterId) return undefined;
    const row = await this.db
      .selectFrom("characters")
      .select("photo")
      .where("id", "=", characterId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return row?.photo || undefined;
  }

  job(id: string): Promise<ImageJob | undefined> {
    return this.db.selectFrom("image_jobs").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** Jobs waiting to run, oldest first (including those a previous process left running). */
  pending(limit: number): Promise<ImageJob[]> {
    return this.db
      .selectFrom("image_jobs")
      .selectAll()
      .where("status", "in", ["queued", "running"])
      .orderBy("created_at")
      .limit(limit)
      .execute();
  }

  /**
   * Claims a job for this worker: queued → running, or a running job whose claim is older than
   * `staleBefore` (its process ended). @returns false when another worker holds it.
   */
  async claim(id: string, now: number, staleBefore: number): Promise<boolean> {
    const result = await this.db
      .updateTable("image_jobs")
      .set((eb) => ({ status: "running", started_at: now, attempts: eb("attempts", "+", 1) }))
      .where("id", "=", id)
      .where((eb) =>
        eb.or([
          eb("status", "=", "queued"),
          eb.and([eb("status", "=", "running"), eb("started_at", "<", staleBefore)]),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async finish(id: string, status: "done" | "failed", error: string, now: number): Promise<void> {
    await this.db
      .updateTable("image_jobs")
      .set({ status, error: error.slice(0, 500), finished_at: now })
      .where("id", "=", id)
      .execute();
  }

  /** Running jobs of this process go back to the queue at shutdown (the next start resumes them). */
  async requeue(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable("image_jobs")
      .set({ status: "queued", started_at: null })
      .where("id", "in", ids)
      .where("status", "=", "running")
      .execute();
  }
}
