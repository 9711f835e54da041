// Request shape of the chat import (POST /api/chat/import, multipart), checked with zod.
import { z } from "zod";

/** POST /api/chat/import (multipart): `id`, one of the user's characters; `file`, a SillyTavern chat (.jsonl). */
export const ImportChatBody = z.object({
  id: z.string().trim().min(1, "Choose the character whose chat to import.").max(100),
  file: z.instanceof(Buffer, { message: "Choose a SillyTavern chat file (.jsonl) to import." }),
});
