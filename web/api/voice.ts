// Voice calls: the voices of the character form and chat, transcribing a recording, and the spoken audio message.
import type { MessageReply, TranscribeReply, Voice, VoicesReply } from "../../common/api";
import { apiRequest, ensureSuccess } from "./client";

/**
 * Voice calls: the voices of the character form and of the chat, and the chat's
 * transcription.
 */

/** product.md §3: a voice of the character form (`characters/voices`), declared in common/api. */
export type { Voice } from "../../common/api";

/** GET /characters/voices: `voices` of the form's voice select. Throws on success 0. */
export async function listVoices(): Promise<Voice[]> {
  const answer = ensureSuccess(await apiRequest<VoicesReply>("/characters/voices"));
  return answer.voices ?? [];
}

/**
 * POST /chat/transcribe (ours), multipart `audio` (a MediaRecorder recording) and `language`:
 * the transcript, with product.md §5's censored-word rule applied by the server ("" when nothing was
 * heard). Throws ApiError when the server refuses (no endpoint, too long).
 */
export async function transcribeRecording(audio: Blob, language = ""): Promise<string> {
  const body = new FormData();
  body.set("audio", audio, "speech");
  if (language) body.set("language", language);
  const answer = ensureSuccess(
    await apiRequest<TranscribeReply>("/chat/transcribe", { method: "POST", body }),
  );
  return answer.text ?? "";
}

/**
 * The spec's audio-message call (POST /chat/audio-message, ours): sends `message` spoken in
 * voice chat (empty: 'listening') to `characterId` in chat `chatId` and answers the message
 * reply with `audioUrl`; with `isGreeting` it only speaks the character's greeting.
 */
export function sendAudioMessage(input: {
  message: string;
  chatId: string;
  characterId: string;
  isGreeting: boolean;
  mute: boolean;
}): Promise<MessageReply> {
  const body = new URLSearchParams({
    message: input.message,
    id: input.chatId,
    characterId: input.characterId,
    is_greeting: input.isGreeting ? "1" : "0",
    mute: input.mute ? "1" : "0",
  });
  return apiRequest<MessageReply>("/chat/audio-message", { method: "POST", body });
}
