// The admin console: editing plans and preset characters, users' plans, limits and blocking, contact messages, free subscriptions; each change audited.
import { randomUUID } from "node:crypto";
import type { Updateable } from "kysely";
import type { PlansTable, PresetCharactersTable, User, UsersTable } from "../../db/schema";
import { badRequest, forbidden, notFound } from "../../errors";
import { msg } from "../../i18n/messages";
import { normalisePicture } from "../../media/picture";
import type { FileStorage } from "../../providers/storage/storage";
import type { SessionDrops } from "../auth/auth.service";
import type { PlansRepo } from "../plans/plans.repo";
import type { AdminRepo } from "./admin.repo";

/** Plan fields an admin may change (prices in cents; grants as in the plans table). */
export interface PlanChanges {
  name?: string;
  priceCents?: number;
  descriptionHtml?: string;
  url?: string;
  stripePriceId?: string;
  characterLimit?: number;
  voiceLimit?: number;
  photoUpload?: boolean;
  imageGeneration?: boolean;
  messageLimit?: number;
  quotaPeriod?: "day" | "month";
  uncensored?: boolean;
}

/** A preset character's fields; `photo` is an upload (JPEG or PNG). */
export interface PresetInput {
  name?: string;
  sex?: "0" | "1";
  voice?: string;
  languageId?: string;
  description?: string;
  greeting?: string;
  appearance?: string;
  photo?: Buffer;
}

/** Per-user limits an admin may set (they hold until the user's next plan change). */
export interface UserLimits {
  characterLimit?: number;
  voiceLimit?: number;
  photoUpload?: boolean;
  imageGeneration?: boolean;
  chatLimit?: number;
  extraMessages?: number;
}

const LIST_LIMIT = 200;
const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
/** Drops undefined values, so an update sets only what was sent. */
function defined<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * What the admin console needs of free subscriptions (a port: the composition root passes the
 * subscribe service, so admin does not depend on that module).
 */
export interface FreeSubscriptionApproval {
  /**
   * Creates the Free account of a pending request and mails its login details.
   * @returns the request's e-mail, or undefined when there is no such pending request.
   */
  approve(id: string): Promise<string | undefined>;
}

/**
 * The admin console: plans, preset characters, users, contact messages and
 * free-subscription requests. Every method is called only for an admin (checked by the routes'
 * hook, on the server); every change writes one audit row naming the admin, the action, the
 * target and the fields sent.
 */
export class AdminService {
  constructor(
    private readonly repo: AdminRepo,
    private readonly plans: PlansRepo,
    private readonly storage: FileStorage,
    private readonly subscribe: FreeSubscriptionApproval,
    /**
     * The cached sessions, which hold the user's row: each write of a user's row drops that
     * user's (a plan edit everyone's), so the change holds at once in this process, on the chat
     * routes too (the rule of server/db/short-cache.ts).
     */
    private readonly sessions: SessionDrops,
    private readonly now: () => number = Date.now,
  ) {}

  /** Writes one audit row: the admin, the action ("plan.update", "backup.download"…), its target and details. */
  async audit(admin: User, action: string, target: string, details: unknown): Promise<void> {
    await this.repo.insertAudit({
      id: randomUUID(),
      admin_id: admin.id,
      admin_email: admin.email,
      action,
      target,
      details: JSON.stringify(details ?? {}),
      created_at: this.now(),
    });
  }

  plansList() {
    return this.repo.plansWithUsers();
  }

  /**
   * Edits a plan; the users on it get its new grants at once.
   * @returns the updated plan. @throws AppError 404 for an unknown plan, 400 for a price id
   *   another plan already uses.
   */
  async updatePlan(admin: User, id: string, changes: PlanChanges) {
    const plan = await this.plans.findById(id);
    if (!plan) throw notFound(msg("models.planDoesNotExist"));
    if (changes.stripePriceId) {
      const other = await this.plans.findByStripePrice(changes.stripePriceId);
      if (other && other.id !== id)
        throw badRequest(msg("admin.stripePriceAlreadyUsedBy", { name: other.name }));
    }
    const fields: Updateable<PlansTable> = defined({
      name: changes.name,
      price_cents: changes.priceCents,
      description_html: changes.descriptionHtml,
      url: changes.url,
      stripe_price_id: changes.stripePriceId,
      character_limit: changes.characterLimit,
      voice_limit: changes.voiceLimit,
      photo_upload: flag(changes.photoUpload),
      image_generation: flag(changes.imageGeneration),
      message_limit: changes.messageLimit,
      quota_period: changes.quotaPeriod,
      uncensored: flag(changes.uncensored),
    });
    await this.repo.updatePlan(id, fields);
    const updated = await this.plans.findById(id);
    if (!updated) throw notFound(msg("models.planDoesNotExist"));
    const users = await this.plans.syncUsersOfPlan(updated);
    if (users > 0) this.sessions.everyUserChanged();
    await this.audit(admin, "plan.update", id, { ...changes, usersUpdated: users });
    return updated;
  }

  /**
   * Replaces a plan's picture (product.md §3: plan images live under /content/pricing/). The
   * upload is checked and re-encoded as JPEG by `normalisePicture` (JPEG or PNG only, bounded
   * pixels; its size is bounded by the multipart limit); the old file is removed.
   * @returns the updated plan. @throws AppError 404 for an unknown plan, 400 for a bad picture.
   */
  async setPlanImage(admin: User, id: string, image: Buffer) {
    const plan = await this.plans.findById(id);
    if (!plan) throw notFound(msg("models.planDoesNotExist"));
    const jpeg = await normalisePicture(image);
    const name = `${randomUUID()}.jpg`;
    await this.storage.put(`pricing/${name}`, jpeg);
    await this.repo.updatePlan(id, { image: name });
    if (plan.image && plan.image !== name) await this.storage.remove(`pricing/${plan.image}`);
    await this.audit(admin, "plan.image", id, { image: name });
    const updated = await this.plans.findById(id);
    if (!updated) throw notFound(msg("models.planDoesNotExist"));
    return updated;
  }

  presetsList() {
    return this.repo.presets();
  }

  private async checkPresetRefs(input: PresetInput): Promise<void> {
    if (input.languageId && !(await this.repo.languageExists(input.languageId))) {
      throw badRequest(msg("admin.languageNotKnown"));
    }
    if (input.voice && !(await this.repo.voiceExists(input.voice)))
      throw badRequest(msg("admin.voiceNotKnown"));
  }

  /** Stores an uploaded photo (re-encoded, safe name) under predefined-characters/. */
  private async storePhoto(photo: Buffer): Promise<string> {
    const jpeg = await normalisePicture(photo);
    const name = `${randomUUID()}.jpg`;
    await this.storage.put(`predefined-characters/${name}`, jpeg);
    return name;
  }

  /**
   * Creates a preset character (shown on the preset selection page).
   * @throws AppError 400 for a missing field, an unknown language or voice, or a bad photo.
   */
  async createPreset(admin: User, input: PresetInput) {
    const { name, sex, voice, languageId, description } = input;
    if (!name || !sex || !voice || !languageId || !description) {
      throw badRequest(msg("admin.nameSexVoiceLanguageidDescription"));
    }
    await this.checkPresetRefs(input);
    const id = randomUUID();
    const photo = input.photo ? await this.storePhoto(input.photo) : "";
    await this.repo.insertPreset({
      id,
      name,
      sex,
      voice,
      language_id: languageId,
      description,
      greeting: input.greeting ?? "",
      appearance: input.appearance ?? "",
      photo,
      sort_order: await this.repo.nextPresetOrder(),
    });
    await this.audit(admin, "preset.create", id, { ...input, photo: photo || undefined });
    return this.repo.findPreset(id);
  }

  /**
   * Edits a preset character; a new photo replaces the old file.
   * @throws AppError 404 for an unknown preset; 400 as for `createPreset`.
   */
  async updatePreset(admin: User, id: string, input: PresetInput) {
    const preset = await this.repo.findPreset(id);
    if (!preset) throw notFound(msg("characters.presetCharacterDoesNotExist"));
    await this.checkPresetRefs(input);
    const photo = input.photo ? await this.storePhoto(input.photo) : undefined;
    const fields: Updateable<PresetCharactersTable> = defined({
      name: input.name,
      sex: input.sex,
      voice: input.voice,
      language_id: input.languageId,
      description: input.description,
      greeting: input.greeting,
      appearance: input.appearance,
      photo,
    });
    await this.repo.updatePreset(id, fields);
    if (photo && preset.photo) await this.storage.remove(`predefined-characters/${preset.photo}`);
    await this.audit(admin, "preset.update", id, { ...input, photo });
    return this.repo.findPreset(id);
  }

  searchUsers(query: string) {
    return this.repo.searchUsers(query.trim(), LIST_LIMIT);
  }

  private async user(id: string): Promise<User> {
    const user = await this.repo.findUser(id);
    if (!user) throw notFound(msg("admin.userNotFound"));
    return user;
  }

  /**
   * Puts a user on a plan (a grant: e.g. bought on an external membership site); its grants
   * apply at once and any pending end of a cancelled subscription is cleared.
   * @throws AppError 404 for an unknown user or plan.
   */
  async setUserPlan(admin: User, userId: string, planId: string) {
    const user = await this.user(userId);
    const plan = await this.plans.findById(planId);
    if (!plan) throw notFound(msg("models.planDoesNotExist"));
    await this.plans.setUserPlan(user.id, plan, this.now(), { plan_ends_at: null });
    this.sessions.userChanged(user.id);
    await this.audit(admin, "user.plan", user.id, { plan: plan.name, from: user.plan_id });
    return this.user(userId);
  }

  /** Sets a user's own limits and add-on messages (until the next plan change). */
  async setUserLimits(admin: User, userId: string, limits: UserLimits) {
    const user = await this.user(userId);
    const fields: Updateable<UsersTable> = defined({
      character_limit: limits.characterLimit,
      voice_limit: limits.voiceLimit,
      photo_upload: flag(limits.photoUpload),
      image_generation: flag(limits.imageGeneration),
      chat_limit: limits.chatLimit,
      extra_messages: limits.extraMessages,
    });
    if (Object.keys(fields).length > 0) await this.repo.updateUser(user.id, fields);
    this.sessions.userChanged(user.id);
    await this.audit(admin, "user.limits", user.id, limits);
    return this.user(userId);
  }

  /**
   * Blocks or unblocks a user. A blocked user cannot sign in, and their sessions and devices end
   * now (a device registered before the block does not sign in again after an unblock).
   * Blocking also turns off every check-in of the user's characters (characters that write
   * first): the job skips blocked users anyway, and with the opt-ins off an unblock does not
   * make every quiet chat write at once; the user turns check-ins on again per character.
   * @throws AppError 403 when an admin tries to block themselves.
   */
  async setBlocked(admin: User, userId: string, blocked: boolean) {
    const user = await this.user(userId);
    if (user.id === admin.id && blocked) throw forbidden(msg("admin.cannotBlockOwnAccount"));
    await this.repo.updateUser(user.id, { blocked: blocked ? 1 : 0 });
    if (blocked) {
      await this.repo.revokeAccessOfUser(user.id);
      await this.repo.turnOffCheckins(user.id, this.now());
    }
    this.sessions.userChanged(user.id);
    await this.audit(admin, blocked ? "user.block" : "user.unblock", user.id, {});
    return this.user(userId);
  }

  /** Starts the user's message count of the current period again at 0. */
  async resetCount(admin: User, userId: string) {
    const user = await this.user(userId);
    await this.repo.updateUser(user.id, { chat_count: 0 });
    this.sessions.userChanged(user.id);
    await this.audit(admin, "user.reset_count", user.id, { was: user.chat_count });
    return this.user(userId);
  }

  contactMessages() {
    return this.repo.contactMessages(LIST_LIMIT);
  }

  freeSubscriptions() {
    return this.repo.freeSubscriptions(LIST_LIMIT);
  }

  /**
   * Approves a free-subscription request by hand (the video check cannot run): the Free
   * account is created and the login details mailed.
   * @throws AppError 404 for an unknown or already verified request.
   */
  async approveFreeSubscription(admin: User, id: string): Promise<void> {
    const email = await this.subscribe.approve(id);
    if (!email) throw notFound(msg("admin.noPendingRequestId"));
    await this.audit(admin, "free_subscription.approve", id, { email });
  }

  auditLog() {
    return this.repo.audit(LIST_LIMIT);
  }
}
