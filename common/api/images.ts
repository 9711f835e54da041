// The pictures' and voice's wire shapes (product.md §3, 7): a photo history entry, the answers of a photo the user sent and of a picture for an entry, and a recording's transcript.
import { z } from "zod";
import { ChatHistoryEntry } from "./chat";
import { Envelope } from "./envelope";

/**
 * product.md §3 "Photo history entry" (GET chat/history/photos): groupUUID in a group chat, else
 * characterUUID; file names of the user's photo ({id}/user_photo/) and the generated picture ({id}/).
 */
export const PhotoHistoryEntry = z
  .object({
    groupUUID: z.string().optional().describe("In a group chat."),
    characterUUID: z.string().optional().describe("Outside a group chat."),
    /** Ours: the history entry the photo belongs to. */
    chatHistoryUUID: z.string().describe("The history entry the photo belongs to."),
    chatHistoryMessageImage: z.string().describe("The user's photo, a file name under {id}/user_photo/."),
    chatHistoryReplyImage: z.string().describe("The generated picture, a file name under {id}/."),
  })
  .meta({ id: "PhotoHistoryEntry", description: "An entry of the chat's photo history." });
export type PhotoHistoryEntry = z.infer<typeof PhotoHistoryEntry>;

/** product.md §7 chat/photo-process reply: success, photo (file name), text (the character's answer), message. */
export const PhotoReply = Envelope.extend({
  photo: z.string().optional().describe("The photo's file name."),
  text: z.string().optional().describe("The character's answer."),
  history: z.array(ChatHistoryEntry).optional(),
}).meta({ id: "PhotoReply", description: "The answer of chat/photo-process." });
export type PhotoReply = z.infer<typeof PhotoReply>;

/**
 * product.md §7 chat/image: the picture of one history entry, asked again or for the first time.
 * `image` is the generated picture's file name under {id}/ ("" while it is being drawn), `history`
 * the entry itself.
 */
export const ImageReply = Envelope.extend({
  image: z.string().describe('The generated picture, a file name under {id}/; "" while it is being drawn.'),
  history: z.array(ChatHistoryEntry).describe("The entry the picture belongs to."),
}).meta({ id: "ImageReply", description: "The answer of chat/image." });
export type ImageReply = z.infer<typeof ImageReply>;

/**
 * Ours: the answer of POST /api/chat/transcribe (voice, here with the pictures' call shapes):
 * the recording's transcript with product.md §5's censored-word rule applied; "" when nothing was heard.
 */
export const TranscribeReply = Envelope.extend({
  text: z.string().describe('The transcript; "" when nothing was heard.'),
}).meta({ id: "TranscribeReply", description: "The answer of chat/transcribe: a recording's transcript." });
export type TranscribeReply = z.infer<typeof TranscribeReply>;
