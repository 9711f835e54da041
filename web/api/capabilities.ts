// The chat screen's capabilities: what this server and this plan allow (GET /chat/capabilities).
import type { ChatCapabilities, Envelope } from "../../common/api";
import { apiRequest, ensureSuccess } from "./client";
import { ApiError } from "./errors";

/** The answer's shapes, declared once in common/api (the server's presenter returns them). */
export type { Capability, ChatCapabilities } from "../../common/api";

/** GET /chat/capabilities: `data` of the envelope. */
export async function getChatCapabilities(): Promise<ChatCapabilities> {
  const answer = ensureSuccess(await apiRequest<Envelope<ChatCapabilities>>("/chat/capabilities"));
  if (answer.data === undefined) throw new ApiError("No capabilities", "envelope");
  return answer.data;
}
