// The characters routes (product.md §7 "Characters and profile"): lists, presets, voices, one character and card export; the writes in characters-writes.routes.ts.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import {
  CharacterDetail,
  CharacterGroup,
  CharacterListItem,
  ChatCharactersReply,
  envelopeOf,
  LanguagesReply,
  PresetCharacter,
  VoicePreviewReply,
  VoicesReply,
} from "../../../common/api";
import { assertSelf, currentUser, signedIn } from "../../http/auth";
import { ok, okWith } from "../../http/envelope";
import { answers, type ZodApp } from "../../http/route-schemas";
import { GET_WRITES } from "../../http/route-writes";
import { msg } from "../../i18n/messages";
import { displayName } from "../conversation/chats.service";
import {
  presentCharacterDetail,
  presentCharacterListItem,
  presentChatListItem,
  presentGroup,
  presentPreset,
} from "./characters.presenter";
import { characterDoc, IdQuery, UserIdQuery, VoiceQuery } from "./characters.schemas";
import type { CharactersService } from "./characters.service";
import { characterWriteRoutes } from "./characters-writes.routes";

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

/** The lists, the preset selection, languages and voices, one character, and its card export. */
function characterReadRoutes(app: ZodApp, characters: CharactersService): void {
  const listSchema = {
    ...characterDoc("`data`: `CharacterListItem[]`"),
    querystring: UserIdQuery,
    response: answers(envelopeOf(CharacterListItem.array())),
  };
  app.get("/api/characters/list/", { schema: listSchema }, async (request) => {
    const user = currentUser(request);
    assertSelf(user.id, request.query.id);
    const list = await characters.list(user);
    return ok(msg("characters.characters"), { data: list.map(presentCharacterListItem) });
  });

  app.get(
    "/api/characters/list/chat",
    { schema: { ...characterDoc("`characters` (beside `data`)"), response: answers(ChatCharactersReply) } },
    async (request) => {
      const user = currentUser(request);
      const list = await characters.list(user);
      return okWith(msg("characters.characters"), {
        characters: list.map((c) => presentChatListItem(c, displayName(user))),
      });
    },
  );

  const groupsSchema = {
    ...characterDoc("`data`: the user's groups"),
    querystring: UserIdQuery,
    response: answers(envelopeOf(CharacterGroup.array())),
  };
  app.get("/api/characters/group/list/", { schema: groupsSchema }, async (request) => {
    const user = currentUser(request);
    assertSelf(user.id, request.query.id);
    const groups = await characters.listGroups(user);
    return ok(msg("characters.groups"), { data: groups.map(presentGroup) });
  });

  const presetsSchema = {
    ...characterDoc("`data`: `PresetCharacter[]`"),
    response: answers(envelopeOf(PresetCharacter.array())),
  };
  app.get("/api/characters/selection", { schema: presetsSchema }, async () => {
    const presets = await characters.listPresets();
    return ok(msg("characters.presetCharacters"), { data: presets.map(presentPreset) });
  });

  const languagesSchema = {
    ...characterDoc("`languages`: `[{ languageUUID, languageName }]`"),
    response: answers(LanguagesReply),
  };
  app.get("/api/characters/languages", { schema: languagesSchema }, async () => {
    const languages = await characters.languages();
    return okWith(msg("characters.languages"), {
      languages: languages.map((l) => ({ languageUUID: l.id, languageName: l.name })),
    });
  });

  const voicesHandler = async () => {
    const voices = await characters.voices();
    return okWith(msg("characters.voices"), {
      voices: voices.map((v) => ({ voiceName: v.name, voiceSex: v.sex, languageCode: v.language_code })),
    });
  };
  const voicesSchema = {
    ...characterDoc("`voices`: `[{ voiceName, voiceSex, languageCode }]`"),
    response: answers(VoicesReply),
  };
  app.get("/api/characters/voices", { schema: voicesSchema }, voicesHandler);
  app.get("/api/characters/voice", { schema: voicesSchema }, voicesHandler);
  // Stores the sample's audio the first time (GET_WRITES).
  const previewSchema = {
    ...characterDoc("`audioUrl`"),
    querystring: VoiceQuery,
    response: answers(VoicePreviewReply),
  };
  app.get(
    "/api/characters/voice/preview/",
    { config: GET_WRITES, schema: previewSchema },
    async (request) => {
      const audioUrl = await characters.previewVoice(request.query.v);
      return okWith(msg("characters.voicePreview"), { audioUrl });
    },
  );

  const characterSchema = {
    ...characterDoc("`data`: the character"),
    querystring: IdQuery,
    response: answers(envelopeOf(CharacterDetail)),
  };
  app.get("/api/characters/", { schema: characterSchema }, async (request) => {
    const character = await characters.get(currentUser(request), request.query.id);
    return ok(msg("characters.character"), { data: presentCharacterDetail(character) });
  });

  const exportSchema = {
    ...characterDoc("the character card as a PNG download", "ours"),
    querystring: IdQuery,
  };
  app.get("/api/characters/export/", { schema: exportSchema }, async (request, reply) => {
    const card = await characters.exportCard(currentUser(request), request.query.id);
    reply.header("Content-Type", "image/png");
    reply.header("Content-Disposition", `attachment; filename="${card.fileName}"`);
    return reply.send(card.png);
  });
}
