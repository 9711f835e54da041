import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { z } from "zod";
import { MESSAGE_MAX_LENGTH } from "../../../common/constants";
import { currentUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { parseInput } from "../../http/validate";
import { isMuted, presentReply } from "../chat/chat.routes";
import type { VoiceService } from "./voice.service";

/** POST /api/chat/transcribe: multipart `audio` (a recording), optional `language` ("en"). */
const TranscribeBody = z.object({
  audio: z.instanceof(Buffer, { message: "is required (a recording)" }),
  language: z
    .string()
    .regex(/^[a-z]{2}(-[A-Za-z]{2})?$/, "must be a language code such as en")
    .optional()
    .or(z.literal("")),
});

/** spec 7 audio-message call: message, id, characterId, is_greeting, mute. */
const AudioMessageBody = z.object({
  message: z
    .string()
    .trim()
    .max(MESSAGE_MAX_LENGTH, `must be at most ${MESSAGE_MAX_LENGTH} characters`)
    .default(""),
  id: z.string().max(100).default(""),
  characterId: z.string().max(100).default(""),
  is_greeting: z.string().optional(),
  mute: z.string().optional(),
});

/**
 * Voice calls of the chat screen (issue 7):
 * - `POST /api/chat/transcribe` (multipart `audio`, at most STT_MAX_BYTES): `{ success, message,
 *   text }`, the transcript with spec 5's censored-word rule applied;
 * - `POST /api/chat/audio-message` (form or multipart: message, id, characterId, is_greeting,
 *   mute): the message-reply shape of `chat/message` with `audioUrl`.
 * The voice preview stays in the characters routes (`GET /api/characters/voice/preview/?v=`).
 */
export function voiceRoutes(
  app: FastifyInstance,
  voice: VoiceService,
  auth: onRequestAsyncHookHandler,
): void {
  app.post("/api/chat/transcribe", { onRequest: auth }, async (request) => {
    const body = parseInput(TranscribeBody, request.body);
    const text = await voice.transcribe(body.audio, body.language || undefined);
    return { ...ok(text ? "Transcript." : "Nothing was heard."), text };
  });

  app.post("/api/chat/audio-message", { onRequest: auth }, async (request) => {
    const body = parseInput(AudioMessageBody, request.body);
    const { result, audioUrl } = await voice.audioMessage(currentUser(request), {
      message: body.message,
      chatId: body.id,
      characterId: body.characterId,
      isGreeting: body.is_greeting === "1" || body.is_greeting === "true",
      mute: isMuted(body.mute),
    });
    request.modelMs = result.modelMs;
    return presentReply(result, audioUrl);
  });
}
