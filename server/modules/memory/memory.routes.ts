// Routes of what a chat's characters remember about the user: list the facts and delete one (the chat screen's Settings).
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { ChatMemory, Envelope, envelopeOf, RecallSetting } from "../../../common/api";
import { notFound } from "../../errors";
import { currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { GET_WRITES } from "../../http/route-writes";
import { msg } from "../../i18n/messages";
import type { Conversation } from "../conversation/conversation";
import { DeleteQuery, ListQuery, memoryDoc, RecallBody, RecallQuery } from "./memory.schemas";
import type { MemoryService } from "./memory.service";

/**
 * Ours: what the characters of a chat remember about the user, for the chat screen's
 * Settings, where each fact can be deleted; and the chat's recall switch.
 */
export async function memoryRoutes(
  app: FastifyInstance,
  memory: MemoryService,
  conversation: Conversation,
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await signedIn(app, auth, (app) => {
    const list = {
      ...memoryDoc(
        "`data`: `[{ memoryUUID, characterUUID, characterName, fact }]`",
        envelopeOf(ChatMemory.array()),
      ),
      querystring: ListQuery,
    };
    app.get("/api/chat/memories", { schema: list }, async (request) => {
      const user = currentUser(request);
      const resolved = await conversation.chats.resolveChat(user, request.query.id);
      const data: ChatMemory[] = [];
      for (const member of resolved.members) {
        for (const fact of await memory.listFacts(user.id, member.id)) {
          data.push({
            memoryUUID: fact.id,
            characterUUID: member.id,
            characterName: member.name,
            fact: fact.fact,
          });
        }
      }
      return ok(msg("memory.memories"), { data });
    });

    // Recall (docs/features.md "Memory"): whether a chat's replies may be given its earlier messages.
    // Creates the chat's session on first use (GET_WRITES).
    const recall = {
      ...memoryDoc(
        "`data: { enabled }`: whether replies recall the chat's earlier messages (on by default); 404 for another's chat",
        envelopeOf(RecallSetting),
      ),
      querystring: RecallQuery,
    };
    app.get("/api/chat/recall", { config: GET_WRITES, schema: recall }, async (request) => {
      const user = currentUser(request);
      const chat = await conversation.chats.resolveChat(user, request.query.id);
      const session = await conversation.chats.session(user, chat);
      const enabled = await memory.recallEnabled(session.id);
      return ok(enabled ? msg("memory.recallChat") : msg("memory.recallOffChat"), {
        data: { enabled },
      });
    });

    const setRecall = {
      ...memoryDoc("`data: { enabled }`; 404 for another's chat", envelopeOf(RecallSetting)),
      body: RecallBody,
    };
    app.post("/api/chat/recall", { schema: setRecall }, async (request) => {
      const user = currentUser(request);
      const { body } = request;
      const chat = await conversation.chats.resolveChat(user, body.id);
      const session = await conversation.chats.session(user, chat);
      await memory.setRecall(session.id, body.enabled);
      const message = body.enabled ? msg("memory.recallChat") : msg("memory.recallOffChat");
      return ok(message, { data: { enabled: body.enabled } });
    });

    const forget = { ...memoryDoc('"Forgotten."', Envelope), querystring: DeleteQuery };
    app.delete("/api/chat/memories/", { schema: forget }, async (request) => {
      const { query } = request;
      if (!(await memory.deleteFact(currentUser(request).id, query.id)))
        throw notFound(msg("memory.memoryNotFound"));
      return ok(msg("memory.forgotten"));
    });
  });
}
