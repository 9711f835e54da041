// Routes of what a chat's characters remember about the user: list the facts and delete one (the chat screen's Settings).
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { notFound } from "../../errors";
import { currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { parseInput } from "../../http/validate";
import type { Conversation } from "../conversation/conversation";
import { DeleteQuery, ListQuery } from "./memory.schemas";
import type { MemoryService } from "./memory.service";

/**
 * Ours: what the characters of a chat remember about the user, for the chat screen's
 * Settings, where each fact can be deleted.
 */
export async function memoryRoutes(
  app: FastifyInstance,
  memory: MemoryService,
  conversation: Conversation,
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await signedIn(app, auth, (app) => {
    app.get("/api/chat/memories", async (request) => {
      const user = currentUser(request);
      const resolved = await conversation.chats.resolveChat(user, parseInput(ListQuery, request.query).id);
      const data = [];
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
      return ok("Memories.", { data });
    });

    app.delete("/api/chat/memories/", async (request) => {
      const query = parseInput(DeleteQuery, request.query);
      if (!(await memory.deleteFact(currentUser(request).id, query.id))) throw notFound("Memory not found.");
      return ok("Forgotten.");
    });
  });
}
