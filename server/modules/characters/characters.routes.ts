// The characters routes (product.md §7 "Characters and profile"): lists, presets, voices, one character, card export, and the writes.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { assertSelf, currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { GET_WRITES } from "../../http/route-writes";
import { parseInput } from "../../http/validate";
import { displayName } from "../conversation/chats.service";
import {
  presentCharacterDetail,
  presentCharacterListItem,
  presentChatListItem,
  presentGroup,
  presentPreset,
} from "./characters.presenter";
import {
  CardBody,
  CharacterBody,
  IdQuery,
  PresetBody,
  UpdateBody,
  UserIdQuery,
  VoiceQuery,
} from "./characters.schemas";
import type { CharactersService } from "./characters.service";

/** product.md §7 "Characters and profile": the reads and the writes, behind the session. */
export async function characterRoutes(
  app: FastifyInstance,
  characters: CharactersService,
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await signedIn(app, auth, (app) => {
    characterReadRoutes(app, characters);
    characterWriteRoutes(app, characters);
  });
}

/** Where a write that leaves a character ready sends the user: back to the list, with its list item. */
function backToList(character: Parameters<typeof presentCharacterListItem>[0]) {
  return { page: "/characters/list", data: presentCharacterListItem(character) };
}

/** The lists, the preset selection, languages and voices, one character, and its card export. */
function characterReadRoutes(app: FastifyInstance, characters: CharactersService): void {
  app.get("/api/characters/list/", async (request) => {
    const user = currentUser(request);
    assertSelf(user.id, parseInput(UserIdQuery, request.query).id);
    const list = await characters.list(user);
    return ok("Characters.", { data: list.map(presentCharacterListItem) });
  });

  app.get("/api/characters/list/chat", async (request) => {
    const user = currentUser(request);
    const list = await characters.list(user);
    return { ...ok("Characters."), characters: list.map((c) => presentChatListItem(c, displayName(user))) };
  });

  app.get("/api/characters/group/list/", async (request) => {
    const user = currentUser(request);
    assertSelf(user.id, parseInput(UserIdQuery, request.query).id);
    const groups = await characters.listGroups(user);
    return ok("Groups.", { data: groups.map(presentGroup) });
  });

  app.get("/api/characters/selection", async () => {
    const presets = await characters.listPresets();
    return ok("Preset characters.", { data: presets.map(presentPreset) });
  });

  app.get("/api/characters/languages", async () => {
    const languages = await characters.languages();
    return {
      ...ok("Languages."),
      languages: languages.map((l) => ({ languageUUID: l.id, languageName: l.name })),
    };
  });

  const voicesHandler = async () => {
    const voices = await characters.voices();
    return {
      ...ok("Voices."),
      voices: voices.map((v) => ({ voiceName: v.name, voiceSex: v.sex, languageCode: v.language_code })),
    };
  };
  app.get("/api/characters/voices", voicesHandler);
  app.get("/api/characters/voice", voicesHandler);
  // Stores the sample's audio the first time (GET_WRITES).
  app.get("/api/characters/voice/preview/", { config: GET_WRITES }, async (request) => {
    const audioUrl = await characters.previewVoice(parseInput(VoiceQuery, request.query).v);
    return { ...ok("Voice preview."), audioUrl };
  });

  app.get("/api/characters/", async (request) => {
    const query = parseInput(IdQuery, request.query);
    const character = await characters.get(currentUser(request), query.id);
    return ok("Character.", { data: presentCharacterDetail(character) });
  });

  app.get("/api/characters/export/", async (request, reply) => {
    const query = parseInput(IdQuery, request.query);
    const card = await characters.exportCard(currentUser(request), query.id);
    reply.header("Content-Type", "image/png");
    reply.header("Content-Disposition", `attachment; filename="${card.fileName}"`);
    return reply.send(card.png);
  });
}

/** Creating (from a preset, the form, at random, a card), updating and deleting characters and groups. */
function characterWriteRoutes(app: FastifyInstance, characters: CharactersService): void {
  app.post("/api/characters/create-preselect", async (request) => {
    const body = parseInput(PresetBody, request.body);
    const character = await characters.createFromPreset(currentUser(request), body.id);
    return ok(`${character.name} is ready to chat with you!`, backToList(character));
  });

  app.post("/api/characters/create", async (request) => {
    const body = parseInput(CharacterBody, request.body);
    const character = await characters.create(currentUser(request), body);
    return ok(`${character.name} has been created.`, backToList(character));
  });

  app.post("/api/characters/update", async (request) => {
    const body = parseInput(UpdateBody, request.body);
    const character = await characters.update(currentUser(request), body.id, body);
    return ok(`${character.name} has been updated.`, backToList(character));
  });

  app.delete("/api/characters/delete/", async (request) => {
    const query = parseInput(IdQuery, request.query);
    await characters.delete(currentUser(request), query.id);
    return ok("Character deleted.");
  });

  app.delete("/api/characters/group/delete/", async (request) => {
    const query = parseInput(IdQuery, request.query);
    await characters.deleteGroup(currentUser(request), query.id);
    return ok("Group deleted.");
  });

  app.post("/api/characters/create-random", async (request) => {
    const character = await characters.createRandom(currentUser(request));
    return ok(`Meet ${character.name}, your new companion!`, { data: presentCharacterListItem(character) });
  });

  app.post("/api/characters/import", async (request) => {
    const body = parseInput(CardBody, request.body);
    const character = await characters.importCard(currentUser(request), body.card);
    return ok(`${character.name} has been imported.`, backToList(character));
  });
}
