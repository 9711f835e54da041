// Voice route of the chat screen: POST /api/chat/transcribe, a recording's transcript with product.md §5's censored-word rule.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import type { TranscribeReply } from "../../../common/api";
import { signedIn } from "../../http/auth";
import { okWith } from "../../http/envelope";
import { msg } from "../../i18n/messages";
import { TranscribeBody, TranscribeDoc } from "./voice.schemas";
import type { VoiceService } from "./voice.service";

/**
 * Voice calls of the chat screen: `POST /api/chat/transcribe` (multipart `audio`, at
 * most STT_MAX_BYTES): `{ success, message, text }`, the transcript with product.md §5's censored-word
 * rule applied. The audio-message call is a turn (chat routes); the voice preview stays in the
 * characters routes (`GET /api/characters/voice/preview/?v=`).
 */
export async function voiceRoutes(
  app: FastifyInstance,
  voice: VoiceService,
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await signedIn(app, auth, (app) => {
    app.post(
      "/api/chat/transcribe",
      { schema: { ...TranscribeDoc, body: TranscribeBody } },
      async (request) => {
        const { body } = request;
        const text = await voice.transcribe(body.audio, body.language || undefined);
        const answer: TranscribeReply = okWith(
          text ? msg("voice.transcript") : msg("voice.nothingWasHeard"),
          { text },
        );
        return answer;
      },
    );
  });
}
