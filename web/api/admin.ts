// The admin console's calls under /api/admin: plans, presets, users and their actions, contact messages, free subscriptions, audit, backups, site settings.
import type {
  AdminAuditEntry,
  AdminBackups,
  AdminContactMessage,
  AdminFreeSubscription,
  AdminMe,
  AdminPlan,
  AdminPreset,
  AdminSiteSettings,
  AdminUser,
  Envelope,
} from "../../common/api";
import { apiRequest, ensureSuccess } from "./client";
import { apiDownload } from "./download";
import { ApiError } from "./errors";

/**
 * The admin console's calls, all under /api/admin. The server checks the admin role
 * on every call: anyone else gets 403 `{success: 0}`, which throws `ApiError('envelope')`.
 */

/**
 * The console's shapes, declared once in common/api (server/modules/admin/admin.presenter.ts returns
 * the lists; the backups and site services the others).
 */
export type {
  AdminAuditEntry,
  AdminBackup,
  AdminBackups,
  AdminContactMessage,
  AdminFreeSubscription,
  AdminMe,
  AdminPlan,
  AdminPreset,
  AdminSiteSettings,
  AdminUser,
} from "../../common/api";

async function getList<T>(path: string, query?: Record<string, string>): Promise<T[]> {
  const answer = ensureSuccess(await apiRequest<Envelope<T[]>>(`/admin${path}`, { query }));
  return Array.isArray(answer.data) ? answer.data : [];
}

async function post(
  path: string,
  body: URLSearchParams | FormData = new URLSearchParams(),
): Promise<Envelope> {
  return ensureSuccess(await apiRequest(`/admin${path}`, { method: "POST", body }));
}

/** Form fields from an object: booleans as '1'/'0', undefined left out. */
function form(fields: Record<string, string | number | boolean | undefined>): URLSearchParams {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    body.set(key, typeof value === "boolean" ? (value ? "1" : "0") : String(value));
  }
  return body;
}

/** GET /admin/me: the signed-in admin. Throws `ApiError('forbidden')` for anyone else. */
export async function getAdminMe(): Promise<AdminMe> {
  const answer = await apiRequest<Envelope<AdminMe>>("/admin/me");
  if (answer.success !== 1 || answer.data === undefined) {
    throw ApiError.fromEnvelope(answer, 403, "Forbidden");
  }
  return answer.data;
}

export const listAdminPlans = () => getList<AdminPlan>("/plans");

/** What the plan form sends; price in dollars. */
export type PlanEdit = Omit<AdminPlan, "id" | "image" | "users">;

/** POST /admin/plans/:id: saves a plan; its users get its grants at once. */
export function updateAdminPlan(id: string, plan: PlanEdit): Promise<Envelope> {
  return post(`/plans/${encodeURIComponent(id)}`, form({ ...plan }));
}

/**
 * POST /admin/plans/:id/image, multipart field `image`: the plan's picture on the
 * pricing page (JPEG or PNG; the server re-encodes it). Throws `ApiError` on a refusal.
 */
export function uploadAdminPlanImage(id: string, image: File): Promise<Envelope> {
  const body = new FormData();
  body.set("image", image, image.name);
  return post(`/plans/${encodeURIComponent(id)}/image`, body);
}

export const listAdminPresets = () => getList<AdminPreset>("/presets");

/** What the preset form sends: a preset's fields, no id for a new one, `photo` only when one was chosen. */
export type PresetEdit = Omit<AdminPreset, "id" | "photo"> & { id?: string; photo?: File };

/** POST /admin/presets (new) or /admin/presets/:id (edit), multipart. */
export function saveAdminPreset(preset: PresetEdit): Promise<Envelope> {
  const body = new FormData();
  for (const key of [
    "name",
    "sex",
    "voice",
    "languageId",
    "description",
    "greeting",
    "appearance",
  ] as const) {
    body.set(key, preset[key]);
  }
  if (preset.photo !== undefined) body.set("photo", preset.photo, preset.photo.name);
  return post(preset.id ? `/presets/${encodeURIComponent(preset.id)}` : "/presets", body);
}

export const searchAdminUsers = (query: string) => getList<AdminUser>("/users", { q: query });

/** The actions on one user. */
export type UserAction =
  | { kind: "plan"; userId: string; planId: string }
  | {
      kind: "limits";
      userId: string;
      limits: { cl: number; vl: number; pl: boolean; il: boolean; chatLimit: number; extraMessages: number };
    }
  | { kind: "block"; userId: string; blocked: boolean }
  | { kind: "reset-count"; userId: string };

/** POST /admin/users/:id/{plan|limits|block|reset-count}. */
export function runUserAction(action: UserAction): Promise<Envelope> {
  const base = `/users/${encodeURIComponent(action.userId)}`;
  switch (action.kind) {
    case "plan":
      return post(`${base}/plan`, form({ plan: action.planId }));
    case "limits":
      return post(`${base}/limits`, form(action.limits));
    case "block":
      return post(`${base}/block`, form({ blocked: action.blocked }));
    case "reset-count":
      return post(`${base}/reset-count`);
  }
}

export const listAdminContactMessages = () => getList<AdminContactMessage>("/contact-messages");
export const listAdminFreeSubscriptions = () => getList<AdminFreeSubscription>("/free-subscriptions");

/** POST /admin/free-subscriptions/:id/approve: creates the Free account and mails its details. */
export function approveFreeSubscription(id: string): Promise<Envelope> {
  return post(`/free-subscriptions/${encodeURIComponent(id)}/approve`);
}

export const listAdminAudit = () => getList<AdminAuditEntry>("/audit");

/** GET /admin/backups: the archives (newest first), whether one is running, the schedule and the last outcomes. */
export async function getAdminBackups(): Promise<AdminBackups> {
  const answer = ensureSuccess(await apiRequest<Envelope<AdminBackups>>("/admin/backups"));
  if (answer.data === undefined) throw new ApiError("No data in the answer", "network");
  return answer.data;
}

/**
 * POST /admin/backups: starts a backup in the background ("Backup started."). Throws
 * `ApiError('envelope')` with the server's sentence when one is already running (HTTP 409).
 */
export function startAdminBackup(): Promise<Envelope> {
  return post("/backups");
}

/**
 * GET /admin/backups/:name/download with the bearer token (the API client's `apiDownload`): the
 * archive's bytes and its file name. Throws `ApiError` when refused (e.g. 404 for an archive
 * that is gone).
 */
export function downloadAdminBackup(name: string): Promise<{ blob: Blob; fileName: string }> {
  return apiDownload(`/admin/backups/${encodeURIComponent(name)}/download`, undefined, name);
}

/** GET /admin/site: whether the guest demo is open, the sign-up mode and the demo's link. */
export async function getAdminSite(): Promise<AdminSiteSettings> {
  const answer = ensureSuccess(await apiRequest<Envelope<AdminSiteSettings>>("/admin/site"));
  if (answer.data === undefined) throw new ApiError("No data in the answer", "network");
  return answer.data;
}

/** POST /admin/site with `demo` 1 or 0: opens or closes the guest demo at once; the server's sentence. */
export function setAdminDemo(open: boolean): Promise<Envelope> {
  return post("/site", form({ demo: open }));
}
