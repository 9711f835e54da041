// The admin console's wire shapes (ours): plans, preset characters, users, contact messages, free-subscription requests, audit lines.

/**
 * Declared once here and re-exported by common/api.ts: server/modules/admin/admin.presenter.ts
 * returns them under `data` of the /api/admin calls and web/api/admin.ts reads them. Times are
 * ISO 8601 strings ("" when unset), prices dollars as text, flags booleans.
 */

/**
 * The grants of a plan, and of a user (whose row holds a copy of its plan's, possibly changed by
 * an admin): product.md §3 cl (characters), vl (voice), pl (photo upload), il (image generation),
 * with the flags as booleans here.
 */
export interface AdminGrants {
  cl: number;
  vl: number;
  pl: boolean;
  il: boolean;
}

/** A plan with everything it grants and how many users are on it (`GET /admin/plans`). */
export interface AdminPlan extends AdminGrants {
  id: string;
  name: string;
  /** Dollars, e.g. "9.99". */
  price: string;
  /** HTML, as the pricing page shows it. */
  description: string;
  url: string;
  /** File name under /content/pricing/. */
  image: string;
  stripePriceId: string;
  /** Messages per quota period. */
  messageLimit: number;
  /** Written only as "day" or "month" (admin.schemas.ts `PlanBody`). */
  quotaPeriod: "day" | "month";
  uncensored: boolean;
  /** How many users are on the plan. */
  users: number;
}

/** A preset character (`GET /admin/presets`); photo is a file name under /content/predefined-characters/. */
export interface AdminPreset {
  id: string;
  name: string;
  /** '0' female, '1' male; written only as these (admin.schemas.ts `PresetBody`). */
  sex: "0" | "1";
  voice: string;
  languageId: string;
  description: string;
  greeting: string;
  appearance: string;
  photo: string;
}

/** A user as the console lists them (`GET /admin/users`), never the password hash. */
export interface AdminUser extends AdminGrants {
  id: string;
  email: string;
  name: string;
  userName: string;
  /** The account's role, "admin" for an administrator. */
  role: string;
  blocked: boolean;
  planId: string;
  planName: string;
  /** ISO 8601; "" for a plan without an end. */
  planEndsAt: string;
  chatLimit: number;
  chatCount: number;
  extraMessages: number;
  /** Whether the user pays through an online subscription. */
  subscribed: boolean;
  createdAt: string;
}

/** A message sent through the contact form (`GET /admin/contact-messages`). */
export interface AdminContactMessage {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  createdAt: string;
}

/** A free-subscription request (`GET /admin/free-subscriptions`); the code is shown so an admin can look for it by hand. */
export interface AdminFreeSubscription {
  id: string;
  email: string;
  code: string;
  /** "pending", "verified" or "expired". */
  status: string;
  /** How many times the video's comments were looked through for the code. */
  checks: number;
  lastError: string;
  expiresAt: string;
  createdAt: string;
}

/** One line of the admin audit (`GET /admin/audit`): who did what to which target. */
export interface AdminAuditEntry {
  id: string;
  adminEmail: string;
  action: string;
  target: string;
  details: string;
  createdAt: string;
}
