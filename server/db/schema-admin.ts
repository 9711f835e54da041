// The tables of the admin console's own records: messages sent through the contact form, the audit log of admin actions and the site-wide settings.

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

/**
 * One site-wide setting an admin changes in the console (server/modules/site/settings.service.ts):
 * key "demo" holds "1" or "0", whether the guest demo (/login/{id}) is open.
 */
export interface SiteSettingsTable {
  key: string;
  value: string;
  updated_at: number;
}

/** The tables above, as the `Database` interface of server/db/schema.ts includes them. */
export interface AdminTables {
  contact_messages: ContactMessagesTable;
  admin_audit: AdminAuditTable;
  site_settings: SiteSettingsTable;
}
