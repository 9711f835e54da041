// Test data made through the API as a user makes it: members (signed-in users), their own characters, one-to-one chats with history, and group chats.
import type { FastifyInstance } from "fastify";
import type { CharacterDetail } from "../../common/api";
import type { SillyTavernHeader, SillyTavernMessage } from "../modules/conversation/sillytavern";
import { call, callMultipart, demoLogin } from "./api";

/** A signed-in member: the session's token and the user's id. */
export interface Member {
  token: string;
  userId: string;
}

/**
 * A new member: a fresh guest (demo) account, 18+ confirmed unless `adult` is false (chat needs
 * it, product.md §2). The app must have the guest demo on (the test apps do).
 */
export function makeMember(app: FastifyInstance, options: { adult?: boolean } = {}): Promise<Member> {
  return demoLogin(app, options);
}

/** The Create Character form's fields (product.md §7 `characters/create`), all as text. */
export type CharacterFields = Record<string, string>;

/**
 * One of `member`'s own characters, made with the Create Character form (POST
 * /api/characters/create, multipart): `fields` over a complete default (Nova, a starship pilot,
 * female, the first language offered).
 * @returns the character as GET /api/characters/?id= answers it.
 * @throws Error with the server's sentence when the form is refused (a plan's character limit, a
 *   field's rule).
 */
export async function makeCharacter(
  app: FastifyInstance,
  member: Member,
  fields: CharacterFields = {},
): Promise<CharacterDetail> {
  const { token } = member;
  const languages = await call(app, "GET", "/api/characters/languages", { token });
  const [language] = languages.body.languages as Array<{ languageUUID: string }>;
  const created = await callMultipart<CharacterDetail>(app, "/api/characters/create", {
    token,
    fields: {
      name: "Nova",
      sex: "0",
      voice: "English Female",
      language: language?.languageUUID ?? "",
      description: "A starship pilot.",
      ...fields,
    },
  });
  const id = created.body.data?.characterUUID;
  if (created.body.success !== 1 || !id)
    throw new Error(`characters/create refused: ${created.body.message}`);
  const detail = await call<CharacterDetail>(app, "GET", `/api/characters/?id=${id}`, { token });
  if (!detail.body.data) throw new Error(`characters/?id= refused: ${detail.body.message}`);
  return detail.body.data;
}

/** One exchange of a chat: the member's message and the character's reply. */
export type Exchange = [message: string, reply: string];

/**
 * `member`'s chat with `characterId` holding `exchanges`, oldest first, one minute apart from
 * 2026-01-01: imported as a SillyTavern chat (POST /api/chat/import), so no model is needed and
 * nothing is charged. It replaces the chat's history.
 * @returns how many messages were imported (two per exchange).
 * @throws Error with the server's sentence when the import is refused.
 */
export async function makeChat(
  app: FastifyInstance,
  member: Member,
  characterId: string,
  exchanges: ReadonlyArray<Exchange>,
): Promise<number> {
  const header: SillyTavernHeader = {
    user_name: "User",
    character_name: "Character",
    create_date: "2026-01-01@00h00m00s",
    chat_metadata: {},
  };
  const start = Date.UTC(2026, 0, 1);
  const line = (isUser: boolean, mes: string, minute: number): SillyTavernMessage => ({
    name: isUser ? "User" : "Character",
    is_user: isUser,
    is_system: false,
    send_date: new Date(start + minute * 60_000).toISOString(),
    mes,
    extra: {},
  });
  const lines = exchanges.flatMap(([message, reply], i) => [
    line(true, message, 2 * i),
    line(false, reply, 2 * i + 1),
  ]);
  const bytes = Buffer.from(`${[header, ...lines].map((value) => JSON.stringify(value)).join("\n")}\n`);
  const imported = await callMultipart<{ imported: number }>(app, "/api/chat/import", {
    token: member.token,
    fields: { id: characterId },
    files: { file: { bytes, filename: "chat.jsonl" } },
  });
  if (imported.body.success !== 1 || !imported.body.data) {
    throw new Error(`chat/import refused: ${imported.body.message}`);
  }
  return imported.body.data.imported;
}

/**
 * A group chat of `member` with `characterIds` (2 to 5 of their characters), made as the spec's
 * GETs make it (`chat/group/new`, then `chat/group/member/add` for each further one).
 * @returns the group's id (from the page the creation answers, `/chat/group/<id>`-like).
 * @throws Error with the server's sentence when a step is refused.
 */
export async function makeGroup(
  app: FastifyInstance,
  member: Member,
  characterIds: ReadonlyArray<string>,
): Promise<string> {
  const { token } = member;
  const [first, ...rest] = characterIds;
  const created = await call(app, "GET", `/api/chat/group/new?cId=${first}`, { token });
  const groupId = /([0-9a-f-]{36})$/.exec(String(created.body.page))?.[1];
  if (created.body.success !== 1 || !groupId)
    throw new Error(`chat/group/new refused: ${created.body.message}`);
  for (const characterId of rest) {
    const added = await call(app, "GET", `/api/chat/group/member/add?gId=${groupId}&cId=${characterId}`, {
      token,
    });
    if (added.body.success !== 1) throw new Error(`chat/group/member/add refused: ${added.body.message}`);
  }
  return groupId;
}
