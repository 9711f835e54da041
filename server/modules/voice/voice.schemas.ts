// Request shapes of the voice routes (transcribing a recording), checked with zod, and their documentation and answer.
import { z } from "zod";
import { TranscribeReply } from "../../../common/api";
import { answers } from "../../http/route-schemas";
import { msg, zodText } from "../../i18n/messages";

/** POST /api/chat/transcribe: multipart `audio` (a recording), optional `language` ("en"). */
export const TranscribeBody = z.object({
  audio: z.instanceof(Buffer, {
    message: zodText(msg("voice.requiredRecording", { Field: msg("field.recording") })),
  }),
  language: z
    .string()
    .regex(
      /^[a-z]{2}(-[A-Za-z]{2})?$/,
      zodText(msg("voice.mustLanguageCodeSuchAs", { Field: msg("validation.field.language") })),
    )
    .optional()
    .or(z.literal("")),
});

/** The documentation of POST /api/chat/transcribe for the OpenAPI document (docs/api.md "Images and voice"): a multipart upload answered by `TranscribeReply`. */
export const TranscribeDoc = {
  tags: ["Images and voice"],
  description: "`text`: the transcript; `stt_unavailable` without `STT_BASE_URL`",
  "x-from": "ours",
  consumes: ["multipart/form-data"],
  response: answers(TranscribeReply),
};
