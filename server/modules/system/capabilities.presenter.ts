// The chat screen's capabilities (GET /api/chat/capabilities, ours): each control on, or off with the reason to show.
import type { Capability, ChatCapabilities, ModelDownloadProgress } from "../../../common/api";

/** What the capabilities answer is made of: the engines' state on this server and the user's pictures. */
export interface CapabilityFacts {
  /** The language model's status; `message` is the reason shown while it is not ready. */
  llm: { ready: boolean; message: string; download?: ModelDownloadProgress };
  /** Whether a text-to-speech engine is configured (TTS_PROVIDER is not "none"). */
  speaks: boolean;
  /** Whether recordings can be transcribed on this server (STT_BASE_URL). */
  transcribes: boolean;
  /** Pictures on request and photo upload for this user (the images service), absent without it. */
  images?: { imageRequests: Capability; photoUpload: Capability };
}

const on: Capability = { enabled: true, reason: "" };
const off = (reason: string): Capability => ({ enabled: false, reason });

/**
 * `data` of GET /api/chat/capabilities. `modelDownload` only while the chat is off because the
 * model is being downloaded (the banner shows how far it has come).
 */
export function presentCapabilities(facts: CapabilityFacts): ChatCapabilities {
  const { llm } = facts;
  return {
    chat: llm.ready ? { ...on } : off(llm.message),
    voiceReplies: facts.speaks
      ? { ...on }
      : off("Spoken replies are turned off on this server (TTS_PROVIDER=none)."),
    // The server's transcription path; the SPA adds the browser's own speech recognition.
    speechInput: facts.transcribes
      ? { ...on }
      : off("Speech input through the server is not configured on this server (no STT_BASE_URL)."),
    ...(facts.images ?? {
      imageRequests: off("Pictures on request are not available on this server."),
      photoUpload: off("Sending photos is not available on this server."),
    }),
    ...(!llm.ready && llm.download ? { modelDownload: llm.download } : {}),
  };
}
