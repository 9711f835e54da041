// The chat screen's capabilities: what this server and this plan allow (GET /chat/capabilities).
import type { Envelope, ModelDownloadProgress } from "../../common/api";
import { apiRequest, ensureSuccess } from "./client";
import { ApiError } from "./errors";

/** One capability of the chat screen: off comes with the reason to show. */
export interface Capability {
  enabled: boolean;
  reason: string;
}

/** GET /chat/capabilities (ours): what this server and this plan allow on the chat screen. */
export interface ChatCapabilities {
  chat: Capability;
  voiceReplies: Capability;
  speechInput: Capability;
  imageRequests: Capability;
  photoUpload: Capability;
  /** while the chat is off because the model downloads, how far it has come. */
  modelDownload?: ModelDownloadProgress;
}

/** GET /chat/capabilities: `data` of the envelope. */
export async function getChatCapabilities(): Promise<ChatCapabilities> {
  const answer = ensureSuccess(await apiRequest<Envelope<ChatCapabilities>>("/chat/capabilities"));
  if (answer.data === undefined) throw new ApiError("No capabilities", "envelope");
  return answer.data;
}
