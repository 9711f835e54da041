// Request shapes of the voice routes (transcribing a recording), checked with zod.
import { z } from "zod";

/** POST /api/chat/transcribe: multipart `audio` (a recording), optional `language` ("en"). */
export const TranscribeBody = z.object({
  audio: z.instanceof(Buffer, { message: "is required (a recording)" }),
  language: z
    .string()
    .regex(/^[a-z]{2}(-[A-Za-z]{2})?$/, "must be a language code such as en")
    .optional()
    .or(z.literal("")),
});
