// The characters writes (product.md §7 "Characters and profile"): creating from a preset, the form, at random or a card, updating, and deleting characters and groups.
import { CharacterListItem, Envelope, envelopeOf } from "../../../common/api";
import { currentUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { answers, type ZodApp } from "../../http/route-schemas";
import { msg } from "../../i18n/messages";
import { presentCharacterListItem } from "./characters.presenter";
import {
  CardBody,
  CharacterBody,
  characterDoc,
  GroupIdQuery,
  IdQuery,
  PresetBody,
  UpdateBody,
} from "./characters.schemas";
import type { CharactersService } from "./characters.service";

/** Where a write that leaves a character ready sends the user: back to the list, with its list item. */
function backToList(character: Parameters<typeof presentCharacterListItem>[0]) {
  return { page: "/characters/list", data: presentCharacterListItem(character) };
}

/** What a create, update or import answers: the new character's list item under `data`, and `page`. */
const CHARACTER_ANSWER = answers(envelopeOf(CharacterListItem));

/** The body type of the form and the card import (documented; JSON and form bodies are read too). */
const MULTIPART = ["multipart/form-data"];

/** The create route's Answers cell of docs/api.md. */
const CREATE_ANSWERS =
  "`data`, `page`; `character_limit` at the plan's cap, `plan_photo` / `plan_appearance` without the flag, `content_minors`";

/**
 * Creating (from a preset, the form, at random, a card), updating and deleting characters and
 * groups, in the signed-in scope of `characterRoutes`. Multipart fields reach the body schemas
 * before validation (@fastify/multipart attaches them in preValidation).
 */
export function characterWriteRoutes(app: ZodApp, characters: CharactersService): void {
  const presetSchema = {
    ...characterDoc("`data`: the new character, `page`"),
    body: PresetBody,
    response: CHARACTER_ANSWER,
  };
  app.post("/api/characters/create-preselect", { schema: presetSchema }, async (request) => {
    const character = await characters.createFromPreset(currentUser(request), request.body.id);
    return ok(msg("characters.readyChat", { name: character.name }), backToList(character));
  });

  const from = "§7 (lorebook, alternate greetings ours)";
  const createSchema = {
    ...characterDoc(CREATE_ANSWERS, from),
    consumes: MULTIPART,
    body: CharacterBody,
    response: CHARACTER_ANSWER,
  };
  app.post("/api/characters/create", { schema: createSchema }, async (request) => {
    const character = await characters.create(currentUser(request), request.body);
    return ok(msg("characters.beenCreated", { name: character.name }), backToList(character));
  });

  const updateSchema = {
    ...characterDoc("`data`, `page`"),
    consumes: MULTIPART,
    body: UpdateBody,
    response: CHARACTER_ANSWER,
  };
  app.post("/api/characters/update", { schema: updateSchema }, async (request) => {
    const { body } = request;
    const character = await characters.update(currentUser(request), body.id, body);
    return ok(msg("characters.beenUpdated", { name: character.name }), backToList(character));
  });

  const deleteSchema = {
    ...characterDoc("–; `last_character` for the only one"),
    querystring: IdQuery,
    response: answers(Envelope),
  };
  app.delete("/api/characters/delete/", { schema: deleteSchema }, async (request) => {
    await characters.delete(currentUser(request), request.query.id);
    return ok(msg("characters.characterDeleted"));
  });

  const groupDeleteSchema = { ...characterDoc("–"), querystring: GroupIdQuery, response: answers(Envelope) };
  app.delete("/api/characters/group/delete/", { schema: groupDeleteSchema }, async (request) => {
    await characters.deleteGroup(currentUser(request), request.query.id);
    return ok(msg("characters.groupDeleted"));
  });

  const randomSchema = { ...characterDoc("`data`: the new character"), response: CHARACTER_ANSWER };
  app.post("/api/characters/create-random", { schema: randomSchema }, async (request) => {
    const character = await characters.createRandom(currentUser(request));
    return ok(msg("characters.meetNewCompanion", { name: character.name }), {
      data: presentCharacterListItem(character),
    });
  });

  const importSchema = {
    ...characterDoc("`data`, `page`", "ours"),
    consumes: MULTIPART,
    body: CardBody,
    response: CHARACTER_ANSWER,
  };
  app.post("/api/characters/import", { schema: importSchema }, async (request) => {
    const character = await characters.importCard(currentUser(request), request.body.card);
    return ok(msg("characters.beenImported", { name: character.name }), backToList(character));
  });
}
