// Pictures on request and photos from the user (product.md §4 "Image generation", "Photo flow"): checks, quota, queuing and the photo history.
import { randomUUID } from "node:crypto";
import type { Capability } from "../../../common/api";
import { MESSAGE_MAX_LENGTH, type PhotoType } from "../../../common/constants";
import { RULES } from "../../../common/validation";
import type { Character, ChatHistoryRow, ImageJob, User } from "../../db/schema";
import { AppError, badRequest, forbidden, notFound } from "../../errors";
import { carried, english, type Message, msg } from "../../i18n/messages";
import { normalisePicture } from "../../media/picture";
import type { ImageProvider } from "../../providers/image/image";
import { type LlmProvider, LlmUnavailableError } from "../../providers/llm/llm";
import type { FileStorage } from "../../providers/storage/storage";
import type { VisionProvider } from "../../providers/vision/vision";
import type { ResolvedChat } from "../conversation/chats.service";
import type { Conversation } from "../conversation/conversation";
import type { EntryCharge } from "../conversation/history.service";
import { encodeReservation, type QuotaService, type Reservation } from "../quota/quota.service";
import {
  assertAdultConfirmed,
  assertAllowedContent,
  involvesMinorSexualContent,
  mentionsSexualContent,
} from "../safety/content-rules";
import {
  buildImagePrompt,
  describeRequest,
  detectPictureInReply,
  detectPictureRequest,
  seedFor,
  sizeFor,
} from "./image-prompt";
import { IMAGE_PENDING_TEXT, type ImageWorker } from "./image-worker";
import type { ImagesRepo } from "./images.repo";
import { answerPhoto } from "./photo-answer";

export interface ImagesOptions {
  portrait: { width: number; height: number };
  landscape: { width: number; height: number };
  maxReplyTokens: number;
  temperature: number;
  /** Longest the answer to a photo may take, milliseconds. */
  timeoutMs: number;
}

const NO_PLAN_PICTURES = msg("images.planDoesNotIncludePictures");
const NO_PLAN_PHOTOS = msg("images.planDoesNotIncludeSending");
const UNCENSORED_ONLY = msg("images.uncensoredPicturesPartPremiumPlus");

/**
 * Pictures on request and photos from the user (product.md §2, 3, 4 "Image generation",
 * "Photo flow", 7 chat/request-photo, chat/image, chat/photo-process, chat/history/photos).
 * Every id from the client is checked against the signed-in user first; pictures need the
 * user's flag il = '1' and a configured image provider; each picture or photo counts as one
 * message of the quota, given back when it fails.
 */
export class ImagesService {
  constructor(
    private readonly repo: ImagesRepo,
    /** Chats, sessions and the user's entries (their rules: content, quota, idempotency). */
    private readonly conversation: Conversation,
    private readonly quota: QuotaService,
    private readonly provider: ImageProvider,
    private readonly vision: VisionProvider,
    private readonly llm: LlmProvider,
    private readonly storage: FileStorage,
    private readonly worker: ImageWorker,
    private readonly options: ImagesOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** GET /chat/capabilities: pictures on request and photo upload for this user on this server. */
  capabilities(user: User): { imageRequests: Capability; photoUpload: Capability } {
    const status = this.provider.status();
    return {
      imageRequests: !user.image_generation
        ? { enabled: false, reason: english(NO_PLAN_PICTURES) }
        : status.ready
          ? { enabled: true, reason: "" }
          : { enabled: false, reason: status.message },
      photoUpload: user.image_generation
        ? { enabled: true, reason: "" }
        : { enabled: false, reason: english(NO_PLAN_PHOTOS) },
    };
  }

  /** @throws 403 without il; AppError 200 "images_unavailable" (success 0) with no provider. */
  private assertPictures(user: User): void {
    if (!user.image_generation) throw forbidden(NO_PLAN_PICTURES, "plan_images");
    assertAdultConfirmed(user);
    const status = this.provider.status();
    if (!status.ready) throw new AppError("images_unavailable", carried(status) ?? status.message);
  }

  /** Content rules of every plan, then the plan's own: explicit pictures only when uncensored. */
  private assertPictureContent(user: User, text: string): void {
    assertAllowedContent(msg("images.term.pictureRequest"), text);
    if (!user.uncensored && mentionsSexualContent(text)) throw forbidden(UNCENSORED_ONLY, "plan_uncensored");
  }

  private newJob(
    user: User,
    entryId: string,
    chatKey: string,
    character: Character,
    description: string,
    type: PhotoType,
    charge: Reservation,
  ): ImageJob {
    const { prompt, negativePrompt } = buildImagePrompt(
      character,
      description,
      type,
      Boolean(user.uncensored),
    );
    const size = sizeFor(type, this.options);
    return {
      id: randomUUID(),
      user_id: user.id,
      entry_id: entryId,
      chat_key: chatKey,
      prompt,
      negative_prompt: negativePrompt,
      width: size.width,
      height: size.height,
      seed: seedFor(character.id),
      status: "queued",
      // The worker gives the message back to this period when the picture fails.
      quota_bucket: encodeReservation(charge),
      attempts: 0,
      error: "",
      created_at: this.now(),
      started_at: null,
      finished_at: null,
    };
  }

  private member(chat: ResolvedChat, characterId: string): Character {
    if (!characterId) return chat.members[0]!;
    const found = chat.members.find((m) => m.id === characterId);
    if (!found) throw notFound(msg("characters.characterNotFound"));
    return found;
  }

  /**
   * POST /chat/request-photo: 'Send a portrait photo' (type 1), 'Send a landscape photo' (type 2),
   * 'Send a photo of.. {words}' or a canned caption. Stores the request as a history entry whose
   * reply image is loading (chatHistoryImageLoading 1) and queues the durable job.
   * @returns the entry and the picture's description (options.picDesc).
   * @throws 403 without il or for explicit requests on censored plans; 404 for another user's chat
   *   or character; 400 for an empty or too long message or refused content; 429 at the quota.
   */
  async requestPhoto(
    user: User,
    input: {
      chatId: string;
      characterId: string;
      message: string;
      type: PhotoType;
      clientMessageId?: string;
    },
  ): Promise<{ entry: ChatHistoryRow; picDesc: string }> {
    this.assertPictures(user);
    const chat = await this.conversation.chats.resolveChat(user, input.chatId);
    if (chat.members.length === 0) throw badRequest(msg("chat.groupNoMembersYet"));
    const character = this.member(chat, input.characterId);
    const message = input.message.trim();
    if (!message) throw badRequest(RULES.chatMessage.messages.required);
    if (message.length > MESSAGE_MAX_LENGTH) throw badRequest(RULES.chatMessage.messages.tooLong);
    this.assertPictureContent(user, message);
    const picDesc = describeRequest(message);
    const stored = await this.conversation.history.appendUserEntry(
      user,
      chat,
      {
        characterId: character.id,
        message,
        clientMessageId: input.clientMessageId,
        contentLabel: msg("images.term.pictureRequest"),
        fields: {
          reply_message: IMAGE_PENDING_TEXT,
          reply_time: this.now(),
          image_loading: 1,
          status: "replied",
        },
        // The entry and its durable job are stored together.
        store: (entry, charge) =>
          this.repo.insertEntryWithJob(
            entry,
            this.newJob(user, entry.id, chat.chatKey, character, picDesc, input.type, charge),
          ),
      },
      this.messageCharge(user),
    );
    if ("repeated" in stored) return { entry: stored.repeated, picDesc };
    this.worker.kick();
    return { entry: stored.entry, picDesc };
  }

  /**
   * POST /chat/image (product.md §7: id, description, ratio …): the picture of a reply whose message
   * reply said genimage 1. Starts the job for the entry unless it has one; answers the entry as
   * it stands (its image, or loading 1).
   * @throws 404 when the entry is not the user's (nothing changes); 403/success 0 as requestPhoto.
   */
  async imageForEntry(
    user: User,
    input: { entryId: string; description: string; type: PhotoType },
  ): Promise<{ entry: ChatHistoryRow; job: ImageJob }> {
    const owned = await this.conversation.history.findOwnedEntry(user, input.entryId);
    if (!owned) throw notFound(msg("chat.messageNotFound"));
    this.assertPictures(user);
    const existing = await this.repo.jobForEntry(owned.id);
    if (existing && existing.status !== "failed") return { entry: owned, job: existing };
    const description = input.description.trim().slice(0, 300);
    this.assertPictureContent(user, description);
    const { chat } = (await this.conversation.chats.chatOfEntry(user, owned)) ?? {};
    if (!chat) throw notFound(msg("chat.messageNotFound"));
    const character = chat.members.find((m) => m.id === owned.character_id) ?? chat.members[0];
    if (!character) throw notFound(msg("characters.characterNotFound"));
    const charge = await this.quota.chargeMessage(user, this.now());
    const job = this.newJob(user, owned.id, chat.chatKey, character, description, input.type, charge);
    try {
      await this.repo.insertEntryWithJob(undefined, job, { image_loading: 1 });
    } catch (error) {
      await this.quota.refundMessage(user.id, charge);
      throw error;
    }
    this.worker.kick();
    return { entry: { ...owned, image_loading: 1 }, job };
  }

  /**
   * After a text reply (POST /chat/message): when the user asked in words for a picture, or the
   * reply sends one as an action ("*sends you a selfie*"), and the user may have one, the reply
   * carries it (genimage 1, options.picDesc) and its job starts at once.
   * Never throws for the picture's sake: without il, a provider, quota or allowed content the
   * reply stays text only.
   * @returns the description and the entry with loading 1, or undefined.
   */
  async offerForReply(
    user: User,
    userMessage: string,
    entry: ChatHistoryRow,
  ): Promise<{ picDesc: string; entry: ChatHistoryRow } | undefined> {
    if (!user.image_generation || !this.provider.status().ready || !entry.reply_message) return undefined;
    const asked = detectPictureRequest(userMessage) ?? detectPictureInReply(entry.reply_message);
    if (!asked) return undefined;
    if (involvesMinorSexualContent(entry.reply_message)) return undefined;
    if (involvesMinorSexualContent(userMessage)) return undefined;
    if (
      !user.uncensored &&
      (mentionsSexualContent(userMessage) || mentionsSexualContent(asked.description))
    ) {
      return undefined;
    }
    if (await this.repo.jobForEntry(entry.id)) return undefined;
    const { chat } = (await this.conversation.chats.chatOfEntry(user, entry).catch(() => undefined)) ?? {};
    const character = chat?.members.find((m) => m.id === entry.character_id);
    if (!chat || !character) return undefined;
    const charge = await this.quota.tryReserve(user, this.now());
    if (!charge) return undefined;
    const job = this.newJob(user, entry.id, chat.chatKey, character, asked.description, asked.type, charge);
    await this.repo.insertEntryWithJob(undefined, job, { image_loading: 1 });
    this.worker.kick();
    return { picDesc: asked.description, entry: { ...entry, image_loading: 1 } };
  }

  /**
   * POST /chat/photo-process: the user's photo (JPEG or PNG, checked and re-encoded like every
   * upload) stored as content/{chat id}/user_photo/{uuid}.jpg in a new history entry, with the
   * user's words; the character answers about it through the vision model when one is
   * configured, otherwise from the words alone, told it cannot see the photo.
   * @throws 403 without il; 400/413 for a bad image; 404 for another user's chat; 429 at the quota.
   */
  async photoProcess(
    user: User,
    input: { chatId: string; characterId: string; photo: Buffer; message: string; clientMessageId?: string },
  ): Promise<{ success: boolean; message: string | Message; entry: ChatHistoryRow }> {
    if (!user.image_generation) throw forbidden(NO_PLAN_PHOTOS, "plan_photos");
    assertAdultConfirmed(user);
    const jpeg = await normalisePicture(input.photo);
    const chat = await this.conversation.chats.resolveChat(user, input.chatId);
    if (chat.members.length === 0) throw badRequest(msg("chat.groupNoMembersYet"));
    const character = this.member(chat, input.characterId);
    const words = input.message.trim();
    if (words.length > MESSAGE_MAX_LENGTH) throw badRequest(RULES.chatMessage.messages.tooLong);
    const file = `${randomUUID()}.jpg`;
    const stored = await this.conversation.history.appendUserEntry(
      user,
      chat,
      {
        characterId: character.id,
        message: words,
        clientMessageId: input.clientMessageId,
        fields: { message_image: file },
        store: async (entry) => {
          await this.storage.put(`${chat.chatKey}/user_photo/${file}`, jpeg);
          await this.repo.insertEntry(entry);
        },
      },
      this.messageCharge(user),
    );
    if ("repeated" in stored) {
      const earlier = stored.repeated;
      const answered = earlier.status === "replied";
      return {
        success: answered,
        message: answered ? msg("images.photoSent") : msg("images.photoWasSentBefore"),
        entry: earlier,
      };
    }
    const { entry, session, charge } = stored;
    try {
      const { conversation, llm, vision, options } = this;
      const deps = { conversation, llm, vision, options };
      const reply = await answerPhoto(deps, user, chat, session, character, words, jpeg);
      const done = { ...entry, reply_message: reply, reply_time: this.now(), status: "replied" };
      await this.conversation.history.updateEntry(entry.id, {
        reply_message: reply,
        reply_time: done.reply_time,
        status: "replied",
      });
      return { success: true, message: msg("images.photoSent"), entry: done };
    } catch (error) {
      await this.conversation.history.updateEntry(entry.id, {
        status: "failed",
        error: String(error).slice(0, 500),
      });
      await this.quota.refundMessage(user.id, charge);
      const message =
        error instanceof LlmUnavailableError
          ? error.text
          : msg("chat.couldNotReplyRightNow", { name: character.name });
      return { success: false, message, entry: { ...entry, status: "failed" } };
    }
  }

  /**
   * The charge of a picture request or a photo: one message of the user's quota, given back when
   * its entry is not stored.
   */
  private messageCharge(user: User): EntryCharge<Reservation> {
    return {
      take: (now, db) => this.quota.chargeMessage(user, now, db),
      giveBack: (charge) => this.quota.refundMessage(user.id, charge),
    };
  }
}
