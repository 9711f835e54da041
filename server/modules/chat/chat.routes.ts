import type { FastifyInstance, preHandlerAsyncHookHandler } from "fastify";
import { z } from "zod";
import type { ChatProfileInfo, MessageReply } from "../../../common/api";
import { HISTORY_PAGE_SIZE, MESSAGE_MAX_LENGTH } from "../../../common/constants";
import { currentUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { notFound } from "../../http/errors";
import { parseInput } from "../../http/validate";
import { presentHistoryEntry, presentProfileCharacter } from "./chat.presenter";
import type { ChatService } from "./chat.service";
import { splitReply } from "./split-reply";

const ProfileQuery = z.object({ uid: z.string().max(100).optional(), id: z.string().max(100).default("") });
const HistoryQuery = z.object({
  uId: z.string().max(100).optional(),
  id: z.string().max(100).default(""),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(HISTORY_PAGE_SIZE),
});
/** spec 5: a chat message is trimmed and at most 150 characters; empty is not sent. */
const MessageBody = z.object({
  message: z
    .string()
    .trim()
    .min(1, "is empty")
    .max(MESSAGE_MAX_LENGTH, `must be at most ${MESSAGE_MAX_LENGTH} characters`),
  id: z.string().max(100).default(""),
  cId: z.string().max(100).default(""),
  mute: z.string().optional(),
  time: z.string().optional(),
  /** Ours: the client's id of this send; a retry with the same id never makes a second entry. */
  clientMessageId: z
    .string()
    .trim()
    .max(100)
    .regex(/^[\w-]*$/, "must be letters, digits, '-' or '_'")
    .optional(),
});

/** spec 7 `chat/group/reply`: message, id (the group), plus our client message id. */
const GroupReplyBody = MessageBody.pick({ message: true, id: true, clientMessageId: true });
const GroupNewQuery = z.object({ cId: z.uuid("must be a character id") });
const GroupMemberQuery = z.object({
  gId: z.uuid("must be a group id"),
  cId: z.uuid("must be a character id"),
});

/** Rejects a user id parameter naming someone else (spec 7 passes the user's own id). */
function assertSelf(userId: string, id: string | undefined): void {
  if (id && id !== userId) throw notFound("User not found.");
}

/** spec 7 "Chat" (issue 2 subset): profile, history pages and sending a message. */
export function chatRoutes(app: FastifyInstance, chat: ChatService, auth: preHandlerAsyncHookHandler): void {
  app.get("/api/chat/profile/", { preHandler: auth }, async (request) => {
    const user = currentUser(request);
    const query = parseInput(ProfileQuery, request.query);
    assertSelf(user.id, query.uid);
    const { chat: resolved } = await chat.profile(user, query.id);
    const info: ChatProfileInfo = {
      userPicture: user.picture,
      userName: user.user_name,
      name: user.full_name,
      characters: resolved.members.map((m) => presentProfileCharacter(m, resolved.groupId)),
    };
    return { ...ok("Chat profile."), info };
  });

  app.get("/api/chat/history/paginated", { preHandler: auth }, async (request) => {
    const user = currentUser(request);
    const query = parseInput(HistoryQuery, request.query);
    assertSelf(user.id, query.uId);
    const rows = await chat.historyPage(user, query.id, query.offset, query.limit);
    return ok("History.", { data: rows.map(presentHistoryEntry) });
  });

  app.get("/api/chat/history", { preHandler: auth }, async (request) => {
    const user = currentUser(request);
    const query = parseInput(HistoryQuery, request.query);
    assertSelf(user.id, query.uId);
    const rows = await chat.historyPage(user, query.id, 0, 100);
    return ok("History.", { data: { data: rows.map(presentHistoryEntry) } });
  });

  app.post("/api/chat/message", { preHandler: auth }, async (request): Promise<MessageReply> => {
    const user = currentUser(request);
    const body = parseInput(MessageBody, request.body);
    const result = await chat.sendMessage(user, {
      message: body.message,
      chatId: body.id,
      characterId: body.cId,
      clientMessageId: body.clientMessageId,
    });
    request.modelMs = result.modelMs;
    const history = result.entry ? [presentHistoryEntry(result.entry)] : [];
    const text = result.entry?.reply_message ?? "";
    const parts = splitReply(text);
    return {
      success: result.success ? 1 : 0,
      message: result.message,
      text,
      history,
      audioUrl: "",
      genimage: 0,
      options: { splitCount: parts.length, splitMessages: parts, picDesc: "" },
    };
  });

  app.get("/api/chat/group/new", { preHandler: auth }, async (request) => {
    const query = parseInput(GroupNewQuery, request.query);
    const page = await chat.newGroup(currentUser(request), query.cId);
    return ok("Group created.", { page });
  });

  app.get("/api/chat/group/member/add", { preHandler: auth }, async (request) => {
    const query = parseInput(GroupMemberQuery, request.query);
    const page = await chat.addGroupMember(currentUser(request), query.gId, query.cId);
    return ok("Member added.", { page });
  });

  app.get("/api/chat/group/member/remove", { preHandler: auth }, async (request) => {
    const query = parseInput(GroupMemberQuery, request.query);
    const page = await chat.removeGroupMember(currentUser(request), query.gId, query.cId);
    return ok("Member removed.", { page });
  });

  app.post("/api/chat/group/reply", { preHandler: auth }, async (request) => {
    const body = parseInput(GroupReplyBody, request.body);
    const result = await chat.groupReply(currentUser(request), {
      message: body.message,
      chatId: body.id,
      clientMessageId: body.clientMessageId,
    });
    request.modelMs = result.modelMs;
    return {
      success: result.success ? 1 : 0,
      message: result.message,
      whoReplies: result.whoReplies,
      history: result.entries.map(presentHistoryEntry),
    };
  });
}
