// The API's wire shapes (product.md §3): the envelope, the session user and token, characters, chat history, swipes, photos, capabilities and check-ins.
import type { ErrorCode } from "./errors";

export type {
  AdminAuditEntry,
  AdminContactMessage,
  AdminFreeSubscription,
  AdminGrants,
  AdminPlan,
  AdminPreset,
  AdminUser,
} from "./api/admin";
export type {
  CharacterBook,
  CharacterBookEntry,
  CharacterDetail,
  CharacterGroup,
  CharacterGroupMember,
  CharacterListItem,
  PresetCharacter,
} from "./api/characters";

/**
 * Wire shapes of the API (spec sections 3 and 7), each declared once: here or in common/api/*.ts
 * (re-exported above). Field names here are exactly the spec's; the server's presenters are typed
 * against them and the SPA's web/api reads them (docs/architecture.md, "Where new code goes": wire types).
 */

/**
 * product.md §3: the response envelope of every call. `success` 1 means ok. Failures also carry `code`
 * (common/errors.ts), the stable name the SPA decides on.
 */
export interface Envelope<T = unknown> {
  success: 0 | 1;
  message: string;
  code?: ErrorCode;
  page?: string;
  data?: T;
}

/** product.md §3: the session user stored under the `user` key. Flags are the strings '0' or '1'. */
export interface SessionUser {
  id: string;
  cl: number;
  vl: number;
  pl: "0" | "1";
  il: "0" | "1";
  /** Ours: '1' once the person confirmed being 18 or older; chat needs it. */
  adult: "0" | "1";
  name: string;
  userName: string;
  userEmail: string;
  userPicture: string;
  /** Ours: the UI language chosen with the account (en, es, fr, de, it, pt); "" = the browser's. */
  uiLanguage: string;
  /**
   * Ours: whether the account has the admin role, computed by the server from the database on
   * every answer (never taken from the client). The SPA shows the Admin menu entry from it; the
   * admin API still checks the role on every call.
   */
  isAdmin: boolean;
}

/** product.md §3: the session token stored under the `token` key. expirationTime in epoch ms. */
export interface SessionToken {
  token: string;
  expirationTime: number;
}

/**
 * product.md §3 "User profile" (`GET users/profile`): userPicture is a file name under
 * /content/users/; chatLimit and chatCount are the messages of the current quota period.
 */
export interface UserProfile {
  name: string;
  userName: string;
  /** "" for a guest (demo) account. */
  userEmail: string;
  pricingPlanName: string;
  chatLimit: number;
  chatCount: number;
  userPicture: string;
  /** Ours: whether the account has the admin role (the server's answer from the database). */
  isAdmin: boolean;
}

/**
 * product.md §3 "Pricing plan" (`GET /payment/pricing`, `data`): pricingImage is a file name under
 * /content/pricing/, pricingPrice the monthly price in dollars as text ("9.99"), pricingDescription
 * HTML. Ours besides: the plan's id and two flags, 0 or 1.
 */
export interface PricingPlan {
  /** Where the card links to (the plan's own page). */
  pricingUrl: string;
  pricingImage: string;
  pricingPrice: string;
  pricingPlanName: string;
  pricingDescription: string;
  /** Ours: the plan's id, for checkout. */
  pricingPlanUUID: string;
  /** Ours: 1 when the plan is bought through checkout here, 0 when it is granted elsewhere. */
  pricingCheckout: 0 | 1;
  /** Ours: 1 for the signed-in user's current plan (0 without a session). */
  pricingCurrent: 0 | 1;
}

/** Answer of login, demo-login and device-login: `data` of the envelope. */
export interface LoginData {
  token: string;
  user: SessionUser;
}

/**
 * Ours: a device registered for device login, as `GET /auth/devices` lists it. Never
 * its secret. Times in epoch ms; lastUsedAt null until its first device login.
 */
export interface SignedInDevice {
  id: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/**
 * Ours ("Take my data"): an export of the user's data, as `GET /account/export` and
 * `POST /account/export` answer it under `export`. Times in epoch ms (null until ready);
 * `downloadUrl` (an API path, fetched with the bearer token) only while it is ready, for 24 h.
 */
export interface DataExport {
  id: string;
  status: "queued" | "running" | "ready" | "failed" | "expired";
  createdAt: number;
  readyAt: number | null;
  expiresAt: number | null;
  /** The ZIP's size, bytes (0 until ready). */
  sizeBytes: number;
  downloadUrl: string | null;
}

/** Ours: the answer of `GET` and `POST /account/export`; `export` null when there is none. */
export interface DataExportAnswer extends Envelope {
  export: DataExport | null;
}

/** product.md §3: a member of the chat profile. gId is empty outside a group. */
export interface ChatProfileCharacter {
  gId: string;
  id: string;
  sex: "0" | "1";
  photo: string;
  name: string;
  greeting: string;
  voice: string;
}

/** product.md §3, 7: `chat/profile` answers `info` with this shape. */
export interface ChatProfileInfo {
  userPicture: string;
  userName: string;
  name: string;
  characters: ChatProfileCharacter[];
}

/**
 * product.md §3: one chat history entry: the user's message and the character's reply.
 * Times are ISO 8601 strings; the reply fields are empty until the reply exists.
 */
export interface ChatHistoryEntry {
  chatHistoryUUID: string;
  characterUUID: string;
  chatHistoryMessage: string;
  chatHistoryMessageImage: string;
  chatHistorySendTime: string;
  chatHistoryReplyMessage: string;
  chatHistoryReplyImage: string;
  chatHistoryReplyAudioUrl: string;
  chatHistoryReplyTime: string;
  chatHistoryImageLoading: 0 | 1;
  /**
   * Ours: where the reply stands. "pending" while the model writes it (a reloaded page follows it
   * with GET /api/chat/stream, and polls only when that is not possible), "replied", "stopped" or "partial" (kept, cut short), "failed" (no reply).
   */
  chatHistoryStatus?: "pending" | "replied" | "stopped" | "partial" | "failed";
  /**
   * Ours ("Swipes"): every reply this entry has had, in the order written (for a
   * greeting: the card's first message, then its alternate greetings). Absent when it has had only
   * one. chatHistoryReplyMessage is the chosen one, `chatHistorySwipes[chatHistorySwipeIndex]`,
   * and it is the one the model sees next.
   */
  chatHistorySwipes?: string[];
  /** Ours: the index of the chosen swipe; absent with chatHistorySwipes. */
  chatHistorySwipeIndex?: number;
}

/**
 * Swipes, edits and rewind (routes ours, all POST, signed in, JSON or form body; every
 * `id` is an entry's chatHistoryUUID, 404 "Message not found." when it is not the user's;
 * regenerate, swipe and edit answer 400 "This reply is still being generated." while it is):
 * - `/api/chat/regenerate` `{ id, stream?, mute? }`: a new reply for the entry, kept as a further
 *   swipe and chosen. Only the newest entry of a single chat, or the newest entry of that
 *   member in a group, and not a greeting (its swipes are the card's). Counts one message
 *   (429 "quota_reached" at the limit; given back when the model gives nothing). At most
 *   REPLY_SWIPES_MAX swipes per entry. Answers a MessageReply whose `history` holds
 *   the entry; with `stream` the events of `chat/continue-message` (`entry`: the entry with an
 *   empty reply and status "pending", the new reply follows in `token`s; `audio`, `done`).
 * - `/api/chat/swipe` `{ id, index }`: chooses swipe `index` (0-based): SwipeReply.
 * - `/api/chat/edit` `{ id, part: "message" | "reply", text }`: replaces the user's message
 *   (rules of the chat message) or the reply's text (1 to REPLY_EDIT_MAX_LENGTH characters, the
 *   chosen swipe is replaced): SwipeReply.
 * - `/api/chat/delete` `{ id }`: removes the entry (the message and its reply) with its files.
 * - `/api/chat/rewind` `{ id }`: removes every entry after it in its chat, with their files.
 *   Delete and rewind stop the generation of a removed entry first (nothing else is stopped).
 * Edits, deletes and rewinds refresh the memory: the summary and the facts drawn from the
 * changed or removed messages are drawn again from what is left.
 */
export interface SwipeReply extends Envelope {
  /** The changed entry. */
  history?: ChatHistoryEntry[];
}

/** The answer of `/api/chat/delete` and `/api/chat/rewind`. */
export interface RemovedEntries extends Envelope {
  /** The chatHistoryUUIDs removed, oldest first. */
  removed?: string[];
}

/** product.md §3: the message reply of `chat/message`. */
export interface MessageReply extends Envelope {
  text?: string;
  history?: ChatHistoryEntry[];
  audioUrl?: string;
  genimage?: 0 | 1;
  options?: {
    splitCount: number;
    splitMessages: string[];
    picDesc: string;
    /**
     * Ours (product.md §4 "Split replies"): each part's own audio, one per `splitMessages`
     * ("" for a part with nothing to say), so the parts are heard in turn. Only on a split reply
     * spoken by the server (not muted, voices on).
     */
    splitAudioUrls?: string[];
  };
}

/**
 * product.md §3 "Message reply" of `chat/group/reply` (§7): the members that replied (their
 * characterUUIDs, in turn order) and their entries, the user's message first. `genimage` 1 when
 * one of them also draws a picture.
 */
export interface GroupReply extends Envelope {
  whoReplies?: string[];
  history?: ChatHistoryEntry[];
  genimage?: 0 | 1;
}

/**
 * product.md §3 "Photo history entry" (GET chat/history/photos): groupUUID in a group chat, else
 * characterUUID; file names of the user's photo ({id}/user_photo/) and the generated picture ({id}/).
 */
export interface PhotoHistoryEntry {
  groupUUID?: string;
  characterUUID?: string;
  /** Ours: the history entry the photo belongs to. */
  chatHistoryUUID: string;
  chatHistoryMessageImage: string;
  chatHistoryReplyImage: string;
}

/** Ours: one capability of the chat screen; off comes with the reason to show. */
export interface Capability {
  enabled: boolean;
  reason: string;
}

/**
 * Ours: how far the download of the default language model has come, as GET
 * /chat/capabilities answers it in `data.modelDownload` while the chat is off because of it.
 */
export interface ModelDownloadProgress {
  /** Bytes written so far. */
  doneBytes: number;
  /** The file's size in bytes; null while the server does not know it. */
  totalBytes: number | null;
  /** Whole percent 0 to 100 (rounded down); null while the size is unknown. */
  percent: number | null;
}

/**
 * Ours: `data` of GET /chat/capabilities, what this server and this plan allow on the chat
 * screen; each control off comes with the reason to show.
 */
export interface ChatCapabilities {
  chat: Capability;
  voiceReplies: Capability;
  /** The server's transcription path; the SPA adds the browser's own speech recognition. */
  speechInput: Capability;
  imageRequests: Capability;
  photoUpload: Capability;
  /** Only while the chat is off because the default model downloads: how far it has come. */
  modelDownload?: ModelDownloadProgress;
}

/**
 * Ours ("Characters that write first"): whether a character may check in first in the
 * user's one-to-one chat (GET/POST /chat/checkins), and the user's IANA time zone it was chosen
 * with (waking hours 09:00-21:00 there); "" until chosen.
 */
export interface CheckinStatus {
  enabled: boolean;
  timeZone: string;
  /** The character's name ("Let {name} write first"). */
  characterName: string;
}

/**
 * Ours: a character with check-ins the user has not seen yet (GET
 * /chat/checkins/unread; the characters list's badge). Cleared when the chat is opened.
 */
export interface UnreadCheckins {
  characterUUID: string;
  unreadCheckins: number;
}
