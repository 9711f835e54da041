// Request schemas of the chat routes (zod, product.md §5, §7), beside chat.routes.ts.
import { z } from "zod";
import {
  ChatHistoryPageReply,
  ChatHistoryReply,
  ChatProfileReply,
  Envelope,
  GroupReply,
  MessageReply,
  RemovedEntries,
  SwipeReply,
} from "../../../common/api";
import { HISTORY_PAGE_SIZE, MESSAGE_MAX_LENGTH, REPLY_SWIPES_MAX } from "../../../common/constants";
import { RULES } from "../../../common/validation";
import { answers } from "../../http/route-schemas";
import { textField, uuidField } from "../../http/validate";
import { msg, zodText } from "../../i18n/messages";
import { ClientMessageId } from "../conversation/inputs";

/** Request shapes of product.md §7 "Chat" (validated by the routes before any service is called). */

export const ProfileQuery = z.object({
  uid: z.string().max(100).optional(),
  id: z.string().max(100).default("").describe("chat: character or group"),
});
export const HistoryQuery = z.object({
  uId: z.string().max(100).optional(),
  id: z.string().max(100).default(""),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(HISTORY_PAGE_SIZE),
});
/**
 * product.md §5: a chat message is trimmed and at most 150 characters; empty is not sent ("The message is
 * empty.", "The message must be at most 150 characters."; common/validation.ts).
 */
export const MessageBody = z.object({
  message: textField(RULES.chatMessage),
  id: z.string().max(100).default(""),
  cId: z.string().max(100).default(""),
  mute: z.string().optional(),
  /** Ours: the name the user goes by in this reply (README "How the chat works"). */
  pname: textField(RULES.senderName).optional(),
  /** Ours: the user's words about themself for this reply. */
  ptext: textField(RULES.senderAbout).optional(),
  /** The user's local time when sending, ISO 8601 with its UTC offset (malformed or far off: ignored). */
  time: z
    .string()
    .max(40, zodText(msg("chat.timeMustIso8601Time")))
    .optional(),
  /** Ours: "1" asks for server-sent events (tokens as they are generated). */
  stream: z.string().optional(),
  clientMessageId: ClientMessageId,
});
/** Ours: `chat/continue-message` and `chat/stop` name the entry (chatHistoryUUID). */
export const EntryBody = z.object({
  id: uuidField(msg("chat.term.messageId")).describe("chatHistoryUUID"),
  stream: z.string().optional(),
});
/** `Chat/regenerate` names the entry; `stream` and `mute` as `chat/message`'s. */
export const RegenerateBody = EntryBody.extend({
  id: uuidField(msg("chat.term.messageId")),
  mute: z.string().optional(),
});
/** `Chat/swipe` chooses the entry's swipe `index` (0-based). */
export const SwipeBody = z.object({
  id: uuidField(msg("chat.term.messageId")),
  index: z.coerce
    .number({ error: zodText(msg("chat.versionNotValid")) })
    .int(zodText(msg("chat.versionNotValid")))
    .min(0, zodText(msg("chat.versionNotValid")))
    .max(REPLY_SWIPES_MAX - 1, zodText(msg("chat.versionNotValid")))
    .describe("0-based"),
});
/**
 * `Chat/edit` replaces the user's message (`part` "message": the chat message's rules)
 * or the reply's text (`part` "reply": RULES.replyEdit); `text` is checked by the part's rule.
 */
const EditMessageText = z.object({ text: textField(RULES.chatMessage) });
const EditReplyText = z.object({ text: textField(RULES.replyEdit) });
/**
 * Ours: `chat/edit` names the entry, the part edited and its new text, checked by that part's rule
 * (common/validation.ts: the chat message's, or `replyEdit`) and trimmed as the rule says.
 */
export const EditBody = z
  .object({
    id: uuidField(msg("chat.term.messageId")),
    part: z
      .enum(["message", "reply"], { error: zodText(msg("chat.partMustMessageReply")) })
      .describe("`message` or `reply`"),
    text: z.string({ error: zodText(msg("chat.textMustText")) }),
  })
  .transform((body, context) => {
    const checked = (body.part === "message" ? EditMessageText : EditReplyText).safeParse({
      text: body.text,
    });
    if (checked.success) return { ...body, text: checked.data.text };
    for (const { message, path } of checked.error.issues) {
      context.issues.push({ code: "custom", message, path, input: body.text });
    }
    return z.NEVER;
  });
/** `Chat/delete` and `chat/rewind` name the entry. */
export const RemoveBody = z.object({ id: uuidField(msg("chat.term.messageId")) });
/** product.md §7 `chat/group/reply`: message, id (the group), plus our client message id. */
export const GroupReplyBody = MessageBody.pick({
  message: true,
  id: true,
  clientMessageId: true,
  mute: true,
  stream: true,
}).extend({ id: MessageBody.shape.id.describe("group") });
/**
 * Ours: GET /api/chat/stream follows an entry's live reply after the event id `after`
 * (the `Last-Event-ID` header, when sent, is read into `after` by the route's preValidation hook).
 */
export const ReplyStreamQuery = z.object({
  id: uuidField(msg("chat.term.messageId")).describe("chatHistoryUUID"),
  after: z.coerce
    .number()
    .int("The event id is not valid.")
    .min(0)
    .max(1_000_000_000)
    .default(0)
    .describe("or the `Last-Event-ID` header"),
});
export const NewChatQuery = z.object({
  id: z.string().max(100).default("").describe("chat"),
  uid: z.string().max(100).optional(),
});
export const GroupNewQuery = z.object({ cId: uuidField(msg("field.characterId")).describe("a character") });
export const GroupMemberQuery = z.object({
  gId: uuidField(msg("field.groupId")),
  cId: uuidField(msg("field.characterId")),
});
/** product.md §7 audio-message call: message, id, characterId, is_greeting, mute. */
export const AudioMessageBody = z.object({
  message: z.string().trim().max(MESSAGE_MAX_LENGTH, zodText(RULES.chatMessage.messages.tooLong)).default(""),
  id: z.string().max(100).default(""),
  characterId: z.string().max(100).default(""),
  is_greeting: z.string().optional(),
  mute: z.string().optional(),
});

export { isMuted } from "../conversation/inputs";

/** The most entries one `chat/history` answer carries (the bound against abuse). */
export const HISTORY_CALL_MAX = 100;

/**
 * `chat/history` query (product.md §7: id, uId: offset and limit as the paginated call's):
 * `offset` counts from the newest entry, `limit` is 1..HISTORY_CALL_MAX, by default the most.
 */
export const HistoryCallQuery = HistoryQuery.extend({
  limit: z.coerce.number().int().min(1).max(HISTORY_CALL_MAX).default(HISTORY_CALL_MAX).describe("≤ 100"),
});

/**
 * The route schemas of the chat routes (chat.routes.ts, resume.routes.ts, groups.routes.ts,
 * history.routes.ts, edits.routes.ts): the request parts checked before the handler, and each
 * route's documentation (docs/api.md's "## Routes" tables: section, answers, origin).
 */

export const MessageRoute = {
  tags: ["Chat"],
  description: "`MessageReply` (text, history, audioUrl, genimage, options), or a stream",
  "x-from": "§7 (stream, clientMessageId ours)",
  body: MessageBody,
  response: answers(MessageReply),
};
export const ContinueRoute = {
  tags: ["Chat"],
  description: "`MessageReply`, or a stream; `continue_limit` past the cap",
  "x-from": "§7",
  body: EntryBody,
  response: answers(MessageReply),
};
export const StopRoute = {
  tags: ["Chat"],
  description: '"Stopped." or "Nothing is being generated…"',
  "x-from": "ours",
  body: EntryBody,
  response: answers(Envelope),
};
export const ReplyStreamRoute = {
  tags: ["Chat"],
  description: "server-sent events (see above)",
  "x-from": "ours",
  querystring: ReplyStreamQuery,
};
export const NewChatRoute = {
  tags: ["Chat"],
  description: "deletes the chat's history; `page`",
  "x-from": "§7",
  querystring: NewChatQuery,
  response: answers(Envelope),
};
export const AudioMessageRoute = {
  tags: ["Chat"],
  description: "`MessageReply` with `audioUrl`",
  "x-from": "§7 (path ours)",
  body: AudioMessageBody,
  response: answers(MessageReply),
};
export const ProfileRoute = {
  tags: ["Chat"],
  description: "`info`: `ChatProfileInfo` (userPicture, userName, name, characters)",
  "x-from": "§7",
  querystring: ProfileQuery,
  response: answers(ChatProfileReply),
};
export const HistoryRoute = {
  tags: ["Chat"],
  description: "`data: { data: ChatHistoryEntry[], more }`, oldest first",
  "x-from": "§7",
  querystring: HistoryCallQuery,
  response: answers(ChatHistoryReply),
};
export const HistoryPageRoute = {
  tags: ["Chat"],
  description: "`data`: `ChatHistoryEntry[]`",
  "x-from": "§7",
  querystring: HistoryQuery,
  response: answers(ChatHistoryPageReply),
};

export const GroupNewRoute = {
  tags: ["Groups"],
  description: "creates a group chat with it; `page`",
  "x-from": "§7",
  querystring: GroupNewQuery,
  response: answers(Envelope),
};
export const GroupMemberAddRoute = {
  tags: ["Groups"],
  description: "`page`; `group_full` past 4 members",
  "x-from": "§7",
  querystring: GroupMemberQuery,
  response: answers(Envelope),
};
export const GroupMemberRemoveRoute = {
  tags: ["Groups"],
  description: "`page`",
  "x-from": "§7",
  querystring: GroupMemberQuery,
  response: answers(Envelope),
};
export const GroupReplyRoute = {
  tags: ["Groups"],
  description: "`{ whoReplies, history }` (entries in turn order), or a stream",
  "x-from": "§7",
  body: GroupReplyBody,
  response: answers(GroupReply),
};

export const RegenerateRoute = {
  tags: ["Edits and swipes"],
  description: "`MessageReply` with a new swipe chosen, or a stream; counts one message",
  "x-from": "ours",
  body: RegenerateBody,
  response: answers(MessageReply),
};
export const SwipeRoute = {
  tags: ["Edits and swipes"],
  description: "`history`: the changed entry",
  "x-from": "ours",
  body: SwipeBody,
  response: answers(SwipeReply),
};
export const EditRoute = {
  tags: ["Edits and swipes"],
  description: "`history`: the changed entry",
  "x-from": "ours",
  body: EditBody,
  response: answers(SwipeReply),
};
export const DeleteRoute = {
  tags: ["Edits and swipes"],
  description: "`removed`: the chatHistoryUUIDs removed",
  "x-from": "ours",
  body: RemoveBody,
  response: answers(RemovedEntries),
};
export const RewindRoute = {
  tags: ["Edits and swipes"],
  description: "`removed`: every later entry of the chat",
  "x-from": "ours",
  body: RemoveBody,
  response: answers(RemovedEntries),
};
