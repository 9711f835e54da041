import type { FastifyInstance, preHandlerAsyncHookHandler } from "fastify";
import { z } from "zod";
import { currentUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { notFound } from "../../http/errors";
import { parseInput } from "../../http/validate";
import { presentCharacterListItem, presentGroup, presentPreset } from "./characters.presenter";
import type { CharactersService } from "./characters.service";

const UserIdQuery = z.object({ id: z.string().max(100).optional() });
const PresetBody = z.object({ id: z.uuid("must be a preset character id") });

/** Rejects a `?id=` naming another user (spec 7 passes the user's own id). */
function assertSelf(userId: string, id: string | undefined): void {
  if (id && id !== userId) throw notFound("User not found.");
}

/** spec 7 "Characters and profile" (issue 2 subset). */
export function characterRoutes(
  app: FastifyInstance,
  characters: CharactersService,
  auth: preHandlerAsyncHookHandler,
): void {
  app.get("/api/characters/list/", { preHandler: auth }, async (request) => {
    const user = currentUser(request);
    assertSelf(user.id, parseInput(UserIdQuery, request.query).id);
    const list = await characters.list(user);
    return ok("Characters.", { data: list.map(presentCharacterListItem) });
  });

  app.get("/api/characters/list/chat", { preHandler: auth }, async (request) => {
    const list = await characters.list(currentUser(request));
    return { ...ok("Characters."), characters: list.map(presentCharacterListItem) };
  });

  app.get("/api/characters/group/list/", { preHandler: auth }, async (request) => {
    const user = currentUser(request);
    assertSelf(user.id, parseInput(UserIdQuery, request.query).id);
    const groups = await characters.listGroups(user);
    return ok("Groups.", { data: groups.map(presentGroup) });
  });

  app.get("/api/characters/selection", { preHandler: auth }, async () => {
    const presets = await characters.listPresets();
    return ok("Preset characters.", { data: presets.map(presentPreset) });
  });

  app.post("/api/characters/create-preselect", { preHandler: auth }, async (request) => {
    const body = parseInput(PresetBody, request.body);
    const character = await characters.createFromPreset(currentUser(request), body.id);
    return ok(`${character.name} is ready to chat with you!`, {
      page: "/characters/list",
      data: presentCharacterListItem(character),
    });
  });
}
