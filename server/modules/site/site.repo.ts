// Database access of the public pages: stored contact messages.
import type { Insertable } from "kysely";
import type { Db } from "../../db/index";
import type { ContactMessagesTable } from "../../db/schema";

/** Database access of the public pages: stored contact messages. */
export class SiteRepo {
  constructor(private readonly db: Db) {}

  /** Stores one contact message. */
  async insertContact(row: Insertable<ContactMessagesTable>): Promise<void> {
    await this.db.insertInto("contact_messages").values(row).execute();
  }
}
