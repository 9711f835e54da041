// Database access of voice: the seeded voice list.
import type { Db } from "../../db/index";

/** Database access of voice: the seeded voice list. */
export class VoiceRepo {
  constructor(private readonly db: Db) {}

  /** A voice of the seeded list by its name, with its language. */
  findVoice(name: string) {
    return this.db.selectFrom("voices").selectAll().where("name", "=", name).executeTakeFirst();
  }
}
