import type { FastifyInstance, preHandlerAsyncHookHandler } from "fastify";
import { APP_VERSION } from "../../../common/constants";
import { currentUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import type { LlmProvider } from "../../providers/llm/llm";
import type { TtsProvider } from "../../providers/tts/tts";

/**
 * Health, the version file of spec 4 (cache busting) and the capabilities the chat screen uses
 * to show or hide its controls with a reason (issue 6: no fake behaviour).
 */
export function systemRoutes(
  app: FastifyInstance,
  deps: { llm: LlmProvider; tts: TtsProvider; dialect: string },
  auth: preHandlerAsyncHookHandler,
): void {
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

  app.get("/api/chat/capabilities", { preHandler: auth }, async (request) => {
    const user = currentUser(request);
    const llm = deps.llm.status();
    const off = (reason: string) => ({ enabled: false, reason });
    return ok("Capabilities.", {
      data: {
        chat: llm.ready ? { enabled: true, reason: "" } : off(llm.message),
        voiceReplies:
          deps.tts.name === "none"
            ? off("Spoken replies are not available yet on this server.")
            : { enabled: true, reason: "" },
        speechInput: off("Speech input is not available yet on this server."),
        imageRequests: user.image_generation
          ? off("Pictures on request are not available yet on this server.")
          : off("Your plan does not include pictures. Premium Plus does."),
        photoUpload: user.image_generation
          ? off("Sending photos is not available yet on this server.")
          : off("Your plan does not include sending photos. Premium Plus does."),
      },
    });
  });
}
