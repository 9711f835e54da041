// How the admin console shows plans, preset characters, users, contact messages, free-subscription requests and audit lines.
import type { Selectable } from "kysely";
import type {
  AdminAuditEntry,
  AdminContactMessage,
  AdminFreeSubscription,
  AdminGrants,
  AdminPlan,
  AdminPreset,
  AdminUser,
} from "../../../common/api";
import { dollars } from "../../../common/constants";
import type {
  AdminAuditTable,
  ContactMessagesTable,
  FreeSubscriptionsTable,
  Plan,
  PresetCharacterRow,
  User,
} from "../../db/schema";

/**
 * Shapes of the admin console's API (ours, not the spec's). Times are ISO 8601
 * strings, prices dollars as text, flags booleans.
 */

const iso = (ms: number | null) => (ms === null ? "" : new Date(ms).toISOString());

/**
 * The grants the console shows for a plan and for a user (whose row holds a copy of its plan's,
 * possibly changed by an admin): limits as numbers, flags as booleans (product.md §3: cl, vl, pl, il).
 */
function presentGrants(
  grants: Pick<Plan, "character_limit" | "voice_limit" | "photo_upload" | "image_generation">,
): AdminGrants {
  return {
    cl: grants.character_limit,
    vl: grants.voice_limit,
    pl: grants.photo_upload === 1,
    il: grants.image_generation === 1,
  };
}

/** A plan with everything it grants and how many users are on it. */
export function presentPlan(plan: Plan & { user_count: number | string | bigint }): AdminPlan {
  return {
    id: plan.id,
    name: plan.name,
    price: dollars(plan.price_cents),
    description: plan.description_html,
    url: plan.url,
    image: plan.image,
    stripePriceId: plan.stripe_price_id,
    ...presentGrants(plan),
    messageLimit: plan.message_limit,
    // Written only as "day" or "month" (PlanBody); the value is sent as stored.
    quotaPeriod: plan.quota_period as AdminPlan["quotaPeriod"],
    uncensored: plan.uncensored === 1,
    users: Number(plan.user_count),
  };
}

/** A preset character; photo is a file name under /content/predefined-characters/. */
export function presentPreset(preset: PresetCharacterRow): AdminPreset {
  return {
    id: preset.id,
    name: preset.name,
    // Written only as "0" or "1" (PresetBody); the value is sent as stored.
    sex: preset.sex as AdminPreset["sex"],
    voice: preset.voice,
    languageId: preset.language_id,
    description: preset.description,
    greeting: preset.greeting,
    appearance: preset.appearance,
    photo: preset.photo,
  };
}

/** A user as the console lists them (never the password hash). */
export function presentAdminUser(user: User & { plan_name: string }): AdminUser {
  return {
    id: user.id,
    email: user.email,
    name: user.full_name,
    userName: user.user_name,
    role: user.role,
    blocked: user.blocked === 1,
    planId: user.plan_id,
    planName: user.plan_name,
    planEndsAt: iso(user.plan_ends_at),
    ...presentGrants(user),
    chatLimit: user.chat_limit,
    chatCount: user.chat_count,
    extraMessages: user.extra_messages,
    subscribed: user.stripe_subscription_id !== "",
    createdAt: iso(user.created_at),
  };
}

/** A message of the contact form. */
export function presentContact(message: Selectable<ContactMessagesTable>): AdminContactMessage {
  return {
    id: message.id,
    name: message.name,
    email: message.email,
    subject: message.subject,
    message: message.message,
    createdAt: iso(message.created_at),
  };
}

/** A free-subscription request; the code is shown so an admin can look for it by hand. */
export function presentFreeSubscription(row: Selectable<FreeSubscriptionsTable>): AdminFreeSubscription {
  return {
    id: row.id,
    email: row.email,
    code: row.code,
    status: row.status,
    checks: row.checks,
    lastError: row.last_error,
    expiresAt: iso(row.expires_at),
    createdAt: iso(row.created_at),
  };
}

/** One line of the admin audit. */
export function presentAudit(row: Selectable<AdminAuditTable>): AdminAuditEntry {
  return {
    id: row.id,
    adminEmail: row.admin_email,
    action: row.action,
    target: row.target,
    details: row.details,
    createdAt: iso(row.created_at),
  };
}
