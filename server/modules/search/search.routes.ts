// The route of message search: GET /api/search (the user's own chats only).
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { rateLimit } from "../../http/rate-limit";
import { msg } from "../../i18n/messages";
import { SearchDoc, SearchQuery } from "./search.schemas";
import type { SearchService } from "./search.service";

/**
 * Ours (product.md "Search"): GET /api/search?q=<words>&chat=<character or group id, optional>
 * answers `{data: SearchHit[]}` (common/search.ts), newest first, at most 50, from the caller's
 * own chats only; 400 for an empty or over-long `q`, 404 for a `chat` that is not theirs.
 * At most 60 searches a minute per address.
 */
export async function searchRoutes(
  app: FastifyInstance,
  search: SearchService,
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await signedIn(app, auth, (app) => {
    const schema = { ...SearchDoc, querystring: SearchQuery };
    app.get("/api/search", { config: rateLimit(60, 60_000), schema }, async (request) => {
      const { query } = request;
      const data = await search.search(currentUser(request).id, query.q, query.chat);
      return ok(msg("search.search"), { data });
    });
  });
}
