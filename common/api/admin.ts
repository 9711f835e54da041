// The admin console's wire shapes (ours): plans, preset characters, users, contact messages, free-subscription requests, audit lines, accounts, backups and site settings.
import { z } from "zod";
import { SiteInfo, SiteRegistration } from "./site";

/**
 * Declared once here and re-exported by common/api.ts: server/modules/admin/admin.presenter.ts
 * returns them under `data` of the /api/admin calls and web/api/admin.ts reads them. Times are
 * ISO 8601 strings ("" when unset), prices dollars as text, flags booleans; the accounts',
 * invitations' and backups' times are epoch ms.
 */

/**
 * The grants of a plan, and of a user (whose row holds a copy of its plan's, possibly changed by
 * an admin): product.md §3 cl (characters), vl (voice), pl (photo upload), il (image generation),
 * with the flags as booleans here.
 */
export const AdminGrants = z
  .object({
    cl: z.number().describe("Characters."),
    vl: z.number().describe("Voice."),
    pl: z.boolean().describe("Photo upload."),
    il: z.boolean().describe("Image generation."),
  })
  .meta({ id: "AdminGrants", description: "The grants of a plan, and of a user." });
export type AdminGrants = z.infer<typeof AdminGrants>;

/** A plan with everything it grants and how many users are on it (`GET /admin/plans`). */
export const AdminPlan = AdminGrants.extend({
  id: z.string(),
  name: z.string(),
  /** Dollars, e.g. "9.99". */
  price: z.string().describe('Dollars, e.g. "9.99".'),
  /** HTML, as the pricing page shows it. */
  description: z.string().describe("HTML, as the pricing page shows it."),
  url: z.string(),
  /** File name under /content/pricing/. */
  image: z.string().describe("File name under /content/pricing/."),
  stripePriceId: z.string(),
  /** Messages per quota period. */
  messageLimit: z.number().describe("Messages per quota period."),
  /** Written only as "day" or "month" (admin.schemas.ts `PlanBody`). */
  quotaPeriod: z.enum(["day", "month"]),
  uncensored: z.boolean(),
  /** How many users are on the plan. */
  users: z.number().describe("How many users are on the plan."),
}).meta({ id: "AdminPlan", description: "A plan with everything it grants and how many users are on it." });
export type AdminPlan = z.infer<typeof AdminPlan>;

/** A preset character (`GET /admin/presets`); photo is a file name under /content/predefined-characters/. */
export const AdminPreset = z
  .object({
    id: z.string(),
    name: z.string(),
    /** '0' female, '1' male; written only as these (admin.schemas.ts `PresetBody`). */
    sex: z.enum(["0", "1"]).describe("'0' female, '1' male."),
    voice: z.string(),
    languageId: z.string(),
    description: z.string(),
    greeting: z.string(),
    appearance: z.string(),
    photo: z.string().describe("A file name under /content/predefined-characters/."),
  })
  .meta({ id: "AdminPreset", description: "A preset character as the console lists it." });
export type AdminPreset = z.infer<typeof AdminPreset>;

/** A user as the console lists them (`GET /admin/users`), never the password hash. */
export const AdminUser = AdminGrants.extend({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  userName: z.string(),
  /** The account's role, "admin" for an administrator. */
  role: z.string().describe('The account\'s role, "admin" for an administrator.'),
  blocked: z.boolean(),
  planId: z.string(),
  planName: z.string(),
  /** ISO 8601; "" for a plan without an end. */
  planEndsAt: z.string().describe('ISO 8601; "" for a plan without an end.'),
  chatLimit: z.number(),
  chatCount: z.number(),
  extraMessages: z.number(),
  /** Whether the user pays through an online subscription. */
  subscribed: z.boolean().describe("Whether the user pays through an online subscription."),
  createdAt: z.string(),
}).meta({ id: "AdminUser", description: "A user as the console lists them (never the password hash)." });
export type AdminUser = z.infer<typeof AdminUser>;

/** A message sent through the contact form (`GET /admin/contact-messages`). */
export const AdminContactMessage = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    subject: z.string(),
    message: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: "AdminContactMessage", description: "A message sent through the contact form." });
export type AdminContactMessage = z.infer<typeof AdminContactMessage>;

/** A free-subscription request (`GET /admin/free-subscriptions`); the code is shown so an admin can look for it by hand. */
export const AdminFreeSubscription = z
  .object({
    id: z.string(),
    email: z.string(),
    code: z.string(),
    /** "pending", "verified" or "expired". */
    status: z.string().describe('"pending", "verified" or "expired".'),
    /** How many times the video's comments were looked through for the code. */
    checks: z.number().describe("How many times the video's comments were looked through for the code."),
    lastError: z.string(),
    expiresAt: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: "AdminFreeSubscription", description: "A free-subscription request." });
export type AdminFreeSubscription = z.infer<typeof AdminFreeSubscription>;

/** One line of the admin audit (`GET /admin/audit`): who did what to which target. */
export const AdminAuditEntry = z
  .object({
    id: z.string(),
    adminEmail: z.string(),
    action: z.string(),
    target: z.string(),
    details: z.string(),
    createdAt: z.string(),
  })
  .meta({ id: "AdminAuditEntry", description: "One line of the admin audit: who did what to which target." });
export type AdminAuditEntry = z.infer<typeof AdminAuditEntry>;

/** The signed-in admin (`GET /admin/me`). */
export const AdminMe = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
  })
  .meta({ id: "AdminMe", description: "The signed-in admin." });
export type AdminMe = z.infer<typeof AdminMe>;

/** An open invitation as the console lists it (`GET /admin/invitations`). */
export const Invitation = z
  .object({
    id: z.string(),
    /** The only e-mail that may use it; "" for any. */
    email: z.string().describe('The only e-mail that may use it; "" for any.'),
    expiresAt: z.number().describe("Epoch ms."),
    createdAt: z.number().describe("Epoch ms."),
    link: z.string().describe("The sign-up link that uses it."),
  })
  .meta({ id: "Invitation", description: "An open invitation as the console lists it." });
export type Invitation = z.infer<typeof Invitation>;

/** A user made in the console (`POST /admin/accounts`); `password` only when the server generated it (shown once). */
export const AddedUser = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    password: z.string().optional().describe("Only when the server generated it (shown once)."),
  })
  .meta({ id: "AddedUser", description: "A user made in the console." });
export type AddedUser = z.infer<typeof AddedUser>;

/** One backup archive in the server's backup folder. */
export const AdminBackup = z
  .object({
    /** The archive's file name; also names it in its download address. */
    name: z.string().describe("The archive's file name; also names it in its download address."),
    /** When it was made, ms since the epoch. */
    createdAt: z.number().describe("When it was made, ms since the epoch."),
    /** Its size in bytes. */
    size: z.number().describe("Its size in bytes."),
    /** The app version that made it. */
    version: z.string().describe("The app version that made it."),
    encrypted: z.boolean(),
  })
  .meta({ id: "AdminBackup", description: "One backup archive in the server's backup folder." });
export type AdminBackup = z.infer<typeof AdminBackup>;

/** GET /admin/backups: the archives and the state of the backups. */
export const AdminBackups = z
  .object({
    /** Newest first. */
    backups: z.array(AdminBackup).describe("Newest first."),
    /** Whether a backup is being made right now. */
    running: z.boolean().describe("Whether a backup is being made right now."),
    /** When the last backup succeeded, ms since the epoch; null when none has. */
    lastSuccessAt: z
      .number()
      .nullable()
      .describe("When the last backup succeeded, ms since the epoch; null when none has."),
    /** The last failed backup (ms since the epoch and the server's sentence); null when none failed. */
    lastFailure: z
      .object({ at: z.number(), message: z.string() })
      .nullable()
      .describe(
        "The last failed backup (ms since the epoch and the server's sentence); null when none failed.",
      ),
    /** The cron expression of the scheduled backups; "" when none are scheduled. */
    schedule: z
      .string()
      .describe('The cron expression of the scheduled backups; "" when none are scheduled.'),
    /** How many of the newest archives are kept. */
    keep: z.number().describe("How many of the newest archives are kept."),
    /** The folder on the server the archives are written to. */
    dir: z.string().describe("The folder on the server the archives are written to."),
  })
  .meta({ id: "AdminBackups", description: "The backup archives and the state of the backups." });
export type AdminBackups = z.infer<typeof AdminBackups>;

/** GET /admin/site: the site's switches as the console shows them (the public site info and the demo's link). */
export const AdminSiteSettings = SiteInfo.extend({
  /** Whether the guest demo (/login/<id>) is open. */
  demo: z.boolean().describe("Whether the guest demo (/login/<id>) is open."),
  /** Who may sign up (the server's REGISTRATION, set in its environment). */
  registration: SiteRegistration.describe(
    "Who may sign up (the server's REGISTRATION, set in its environment).",
  ),
  /** The guest demo's address, on this browser's origin (or PUBLIC_URL). */
  demoLink: z.string().describe("The guest demo's address, on this browser's origin (or PUBLIC_URL)."),
}).meta({ id: "AdminSiteSettings", description: "The site's switches as the console shows them." });
export type AdminSiteSettings = z.infer<typeof AdminSiteSettings>;
