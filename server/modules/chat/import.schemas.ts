// Request shape of the chat import (POST /api/chat/import, multipart), checked with zod.
import { z } from "zod";
import { ChatImportReply } from "../../../common/api";
import { answers } from "../../http/route-schemas";
import { msg, zodText } from "../../i18n/messages";

/** POST /api/chat/import (multipart): `id`, one of the user's characters; `file`, a SillyTavern chat (.jsonl). */
export const ImportChatBody = z.object({
  id: z
    .string()
    .trim()
    .min(1, zodText(msg("chat.chooseCharacterWhoseChatImport")))
    .max(100)
    .describe("one of the user's characters"),
  file: z
    .instanceof(Buffer, { message: zodText(msg("chat.chooseSillytavernChatFileJsonl")) })
    .describe("a SillyTavern `.jsonl`, ≤ 20 MB, ≤ 20 000 messages, each ≤ 20 000 characters"),
});

/** The route schema of POST /api/chat/import: its multipart body and its documentation (docs/api.md). */
export const ImportChatRoute = {
  tags: ["Chat"],
  description:
    "replaces the character's history as New Chat deletes it; `data: { imported }` (messages imported); `bad_chat_file` (400, the sentence names the line), `chat_file_too_large` (413), 404 for another's character",
  "x-from": "ours",
  consumes: ["multipart/form-data"],
  body: ImportChatBody,
  response: answers(ChatImportReply),
};
