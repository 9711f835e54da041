import type { Db } from "../../db/index";

/** Database access of the public pages: stored contact messages. */
export class SiteRepo {
  constructor(private readonly db: Db) {}

  /** Stores one contact message. */
  async insertContact(row: {
    id: string;
    name: string;
    email: string;
    subject: string;
    message: string;
    created_at: number;
  }): Promise<void> {
    await this.db.insertInto("contact_messages").values(row).execute();
  }
}
