// What a chat's Settings show (ours): the facts its characters remember, its recall switch, and check-ins (a character writing first).
import { z } from "zod";

/** One remembered fact (ours): GET /chat/memories answers a list of these. */
export const ChatMemory = z
  .object({
    memoryUUID: z.string(),
    characterUUID: z.string(),
    characterName: z.string(),
    fact: z.string(),
  })
  .meta({ id: "ChatMemory", description: "One fact a character of the chat remembers about the user." });
export type ChatMemory = z.infer<typeof ChatMemory>;

/** A chat's recall setting as the server answers it: `{enabled}` (GET and POST /chat/recall). */
export const RecallSetting = z
  .object({
    /** Whether a reply's prompt may be given earlier messages of this chat (on by default). */
    enabled: z
      .boolean()
      .describe("Whether a reply's prompt may be given earlier messages of this chat (on by default)."),
  })
  .meta({ id: "RecallSetting", description: "A chat's recall setting." });
export type RecallSetting = z.infer<typeof RecallSetting>;

/**
 * Ours ("Characters that write first"): whether a character may check in first in the
 * user's one-to-one chat (GET/POST /chat/checkins), and the user's IANA time zone it was chosen
 * with (waking hours 09:00-21:00 there); "" until chosen.
 */
export const CheckinStatus = z
  .object({
    enabled: z.boolean(),
    timeZone: z.string().describe('The user\'s IANA time zone it was chosen with; "" until chosen.'),
    /** The character's name ("Let {name} write first"). */
    characterName: z.string().describe('The character\'s name ("Let {name} write first").'),
  })
  .meta({
    id: "CheckinStatus",
    description: "Whether a character may check in first in the user's one-to-one chat.",
  });
export type CheckinStatus = z.infer<typeof CheckinStatus>;

/**
 * Ours: a character with check-ins the user has not seen yet (GET
 * /chat/checkins/unread; the characters list's badge). Cleared when the chat is opened.
 */
export const UnreadCheckins = z
  .object({
    characterUUID: z.string(),
    unreadCheckins: z.number(),
  })
  .meta({ id: "UnreadCheckins", description: "A character with check-ins the user has not seen yet." });
export type UnreadCheckins = z.infer<typeof UnreadCheckins>;
