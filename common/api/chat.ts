// The chat's wire shapes (product.md §3, 7): the chat profile, a history entry, and the answers of a message, a group turn, swipes, edits and rewinds.
import { z } from "zod";
import { Envelope, envelopeOf } from "./envelope";

/** product.md §3: a member of the chat profile. gId is empty outside a group. */
export const ChatProfileCharacter = z
  .object({
    gId: z.string().describe("The group's id; empty outside a group."),
    id: z.string(),
    sex: z.enum(["0", "1"]).describe("'0' female, '1' male."),
    photo: z.string(),
    name: z.string(),
    greeting: z.string(),
    voice: z.string(),
  })
  .meta({ id: "ChatProfileCharacter", description: "A member of the chat profile." });
export type ChatProfileCharacter = z.infer<typeof ChatProfileCharacter>;

/** product.md §3, 7: `chat/profile` answers `info` with this shape. */
export const ChatProfileInfo = z
  .object({
    userPicture: z.string(),
    userName: z.string(),
    name: z.string(),
    characters: z.array(ChatProfileCharacter),
  })
  .meta({ id: "ChatProfileInfo", description: "`info` of the chat/profile answer." });
export type ChatProfileInfo = z.infer<typeof ChatProfileInfo>;

/** product.md §7 `chat/profile`: the envelope with `info`, the user and the chat's characters. */
export const ChatProfileReply = Envelope.extend({ info: ChatProfileInfo }).meta({
  id: "ChatProfileReply",
  description: "The answer of chat/profile: `info`, the user and the chat's characters.",
});
export type ChatProfileReply = z.infer<typeof ChatProfileReply>;

/**
 * product.md §3: one chat history entry: the user's message and the character's reply.
 * Times are ISO 8601 strings; the reply fields are empty until the reply exists.
 */
export const ChatHistoryEntry = z
  .object({
    chatHistoryUUID: z.string(),
    characterUUID: z.string(),
    chatHistoryMessage: z.string(),
    chatHistoryMessageImage: z.string(),
    chatHistorySendTime: z.string().describe("ISO 8601."),
    chatHistoryReplyMessage: z.string(),
    chatHistoryReplyImage: z.string(),
    chatHistoryReplyAudioUrl: z.string(),
    chatHistoryReplyTime: z.string().describe("ISO 8601; empty until the reply exists."),
    chatHistoryImageLoading: z.literal([0, 1]),
    /**
     * Ours: where the reply stands. "pending" while the model writes it (a reloaded page follows it
     * with GET /api/chat/stream, and polls only when that is not possible), "replied", "stopped" or "partial" (kept, cut short), "failed" (no reply).
     */
    chatHistoryStatus: z
      .enum(["pending", "replied", "stopped", "partial", "failed"])
      .optional()
      .describe(
        'Where the reply stands: "pending" while the model writes it, "replied", "stopped" or "partial" (kept, cut short), "failed" (no reply).',
      ),
    /**
     * Ours ("Swipes"): every reply this entry has had, in the order written (for a
     * greeting: the card's first message, then its alternate greetings). Absent when it has had only
     * one. chatHistoryReplyMessage is the chosen one, `chatHistorySwipes[chatHistorySwipeIndex]`,
     * and it is the one the model sees next.
     */
    chatHistorySwipes: z
      .array(z.string())
      .optional()
      .describe(
        "Every reply this entry has had, in the order written; absent when it has had only one. chatHistoryReplyMessage is the chosen one.",
      ),
    /** Ours: the index of the chosen swipe; absent with chatHistorySwipes. */
    chatHistorySwipeIndex: z
      .number()
      .optional()
      .describe("The index of the chosen swipe; absent with chatHistorySwipes."),
  })
  .meta({
    id: "ChatHistoryEntry",
    description:
      "One chat history entry: the user's message and the character's reply (empty until it exists).",
  });
export type ChatHistoryEntry = z.infer<typeof ChatHistoryEntry>;

/** product.md §7 `chat/history/paginated`: `data` is one page of entries, oldest first. */
export const ChatHistoryPageReply = envelopeOf(z.array(ChatHistoryEntry)).meta({
  id: "ChatHistoryPageReply",
  description: "The answer of chat/history/paginated: `data`, one page of entries, oldest first.",
});
export type ChatHistoryPageReply = z.infer<typeof ChatHistoryPageReply>;

/**
 * product.md §7 `chat/history`'s `data`: the entries shown, oldest first, and `more` 1 when older
 * entries remain (ask again with offset + the entries shown).
 */
export const ChatHistoryWindow = z
  .object({
    data: z.array(ChatHistoryEntry).describe("The entries shown, oldest first."),
    more: z.literal([0, 1]).describe("1 when older entries remain."),
  })
  .meta({ id: "ChatHistoryWindow", description: "`data` of the chat/history answer." });
export type ChatHistoryWindow = z.infer<typeof ChatHistoryWindow>;

/** The answer of `chat/history`: `data`, the entries shown and whether older ones remain. */
export const ChatHistoryReply = envelopeOf(ChatHistoryWindow).meta({
  id: "ChatHistoryReply",
  description: "The answer of chat/history: `data`, the entries shown and whether older ones remain.",
});
export type ChatHistoryReply = z.infer<typeof ChatHistoryReply>;

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
export const SwipeReply = Envelope.extend({
  /** The changed entry. */
  history: z.array(ChatHistoryEntry).optional().describe("The changed entry."),
}).meta({ id: "SwipeReply", description: "The answer of /api/chat/swipe and /api/chat/edit." });
export type SwipeReply = z.infer<typeof SwipeReply>;

/** The answer of `/api/chat/delete` and `/api/chat/rewind`. */
export const RemovedEntries = Envelope.extend({
  /** The chatHistoryUUIDs removed, oldest first. */
  removed: z.array(z.string()).optional().describe("The chatHistoryUUIDs removed, oldest first."),
}).meta({ id: "RemovedEntries", description: "The answer of /api/chat/delete and /api/chat/rewind." });
export type RemovedEntries = z.infer<typeof RemovedEntries>;

/** product.md §3: the message reply of `chat/message`. */
export const MessageReply = Envelope.extend({
  text: z.string().optional(),
  history: z.array(ChatHistoryEntry).optional(),
  audioUrl: z.string().optional(),
  genimage: z.literal([0, 1]).optional(),
  options: z
    .object({
      splitCount: z.number(),
      splitMessages: z.array(z.string()),
      picDesc: z.string(),
      /**
       * Ours (product.md §4 "Split replies"): each part's own audio, one per `splitMessages`
       * ("" for a part with nothing to say), so the parts are heard in turn. Only on a split reply
       * spoken by the server (not muted, voices on).
       */
      splitAudioUrls: z
        .array(z.string())
        .optional()
        .describe(
          'Each part\'s own audio, one per splitMessages ("" for a part with nothing to say); only on a split reply spoken by the server.',
        ),
    })
    .optional(),
}).meta({ id: "MessageReply", description: "The message reply of chat/message." });
export type MessageReply = z.infer<typeof MessageReply>;

/**
 * product.md §3 "Message reply" of `chat/group/reply` (§7): the members that replied (their
 * characterUUIDs, in turn order) and their entries, the user's message first. `genimage` 1 when
 * one of them also draws a picture.
 */
export const GroupReply = Envelope.extend({
  whoReplies: z
    .array(z.string())
    .optional()
    .describe("The characterUUIDs of the members that replied, in turn order."),
  history: z.array(ChatHistoryEntry).optional(),
  genimage: z.literal([0, 1]).optional(),
}).meta({
  id: "GroupReply",
  description: "The answer of chat/group/reply: the members that replied and their entries.",
});
export type GroupReply = z.infer<typeof GroupReply>;

/** Ours: what POST /api/chat/import did, as its `data`: how many of the file's messages were imported. */
export const ChatImported = z
  .object({ imported: z.number().describe("The messages imported.") })
  .meta({ id: "ChatImported", description: "`data` of the chat/import answer: the messages imported." });
export type ChatImported = z.infer<typeof ChatImported>;

/** The answer of POST /api/chat/import: `data`, the messages imported. */
export const ChatImportReply = envelopeOf(ChatImported).meta({
  id: "ChatImportReply",
  description: "The answer of chat/import: `data.imported`, the messages imported.",
});
export type ChatImportReply = z.infer<typeof ChatImportReply>;
