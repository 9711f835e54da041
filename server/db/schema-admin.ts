// The tables of the admin console's own records: messages sent through the contact form and the audit log of admin actions.

export interface ContactMessagesTable {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  created_at: number;
}

/** One admin action (an audit log of every admin action). */
export interface AdminAuditTable {
  id: string;
  admin_id: string;
  admin_email: string;
  /** e.g. "plan.update", "user.block". */
  action: string;
  /** The id of what was changed. */
  target: string;
  /** JSON of the fields sent. */
  details: string;
  created_at: number;
}

/** The tables above, as the `Database` interface of server/db/schema.ts includes them. */
export interface AdminTables {
  contact_messages: ContactMessagesTable;
  admin_audit: AdminAuditTable;
}
