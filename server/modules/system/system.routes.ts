import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import type { Capability } from "../../../common/api";
import { APP_VERSION } from "../../../common/constants";
import type { User } from "../../db/schema";
import { currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import type { LlmProvider } from "../../providers/llm/llm";
import type { TtsProvider } from "../../providers/tts/tts";

/** What the system routes read: the engines' status and the user's picture capabilities (ports). */
export interface SystemDeps {
  llm: LlmProvider;
  tts: TtsProvider;
  dialect: string;
  /** issue 7: whether recordings can be transcribed on this server (STT_BASE_URL). */
  transcribes?: boolean;
  /** issue 8: pictures on request and photo upload for this user (filled by the images service). */
  images?: (user: User) => { imageRequests: Capability; photoUpload: Capability };
}

/**
 * Health, the version file of spec 4 (cache busting) and the capabilities the chat screen uses
 * to show or hide its controls with a reason (issue 6: no fake behaviour).
 */
export async function systemRoutes(
  app: FastifyInstance,
  deps: SystemDeps,
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  app.get("/api/health", async () => {
    const status = deps.llm.status();
    return ok("ok", {
      data: { version: APP_VERSION, database: deps.dialect, llm: { provider: deps.llm.name, ...status } },
    });
  });

  app.get("/meta.json", async (_request, reply) => {
    reply.header("Cache-Control", "no-store");
    return { version: APP_VERSION };
  });

  await signedIn(app, auth, (scope) => capabilityRoutes(scope, deps));
}

/** The chat screen's capabilities for the signed-in user; registered behind the session hook. */
function capabilityRoutes(app: FastifyInstance, deps: SystemDeps): void {
  app.get("/api/chat/capabilities", async (request) => {
    const user = currentUser(request);
    const llm = deps.llm.status();
    const off = (reason: string) => ({ enabled: false, reason });
    return ok("Capabilities.", {
      data: {
        chat: llm.ready ? { enabled: true, reason: "" } : off(llm.message),
        voiceReplies:
          deps.tts.name === "none"
            ? off("Spoken replies are turned off on this server (TTS_PROVIDER=none).")
            : { enabled: true, reason: "" },
        // The server's transcription path; the SPA adds the browser's own speech recognition.
        speechInput: deps.transcribes
          ? { enabled: true, reason: "" }
          : off("Speech input through the server is not configured on this server (no STT_BASE_URL)."),
        ...(deps.images
          ? deps.images(user)
          : {
              imageRequests: off("Pictures on request are not available on this server."),
              photoUpload: off("Sending photos is not available on this server."),
            }),
      },
    });
  });
}
