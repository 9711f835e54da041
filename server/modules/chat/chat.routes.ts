import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
} from "fastify";
import { z } from "zod";
import type { ChatProfileInfo, MessageReply } from "../../../common/api";
import { HISTORY_PAGE_SIZE, MESSAGE_MAX_LENGTH } from "../../../common/constants";
import { assertSelf, currentUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { AppError } from "../../http/errors";
import { parseInput } from "../../http/validate";
import { type PictureOffer, withPicture } from "../images/images.presenter";
import type { VoiceService } from "../voice/voice.service";
import { presentHistoryEntry, presentProfileCharacter } from "./chat.presenter";
import { type ChatService, displayName, type SendResult } from "./chat.service";
import { fillPlaceholders } from "./prompt";
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
  /** Ours: "1" asks for server-sent events (tokens as they are generated). */
  stream: z.string().optional(),
  /** Ours: the client's id of this send; a retry with the same id never makes a second entry. */
  clientMessageId: z
    .string()
    .trim()
    .max(100)
    .regex(/^[\w-]*$/, "must be letters, digits, '-' or '_'")
    .optional(),
});

/** Ours: `chat/continue-message` and `chat/stop` name the entry (chatHistoryUUID). */
const EntryBody = z.object({ id: z.uuid("must be a message id"), stream: z.string().optional() });

/**
 * The spec's message reply (spec 3) for a send, a continuation or a repeated send.
 * @param audioUrl the reply's spoken audio ("" when muted or none).
 */
export function presentReply(result: SendResult, audioUrl = ""): MessageReply {
  const history = result.entry ? [presentHistoryEntry(result.entry)] : [];
  const text = result.entry?.reply_message ?? "";
  // A stopped or cut-short reply is one unfinished message that Continue extends: never split.
  const parts = result.entry?.status === "replied" ? splitReply(text) : text ? [text] : [];
  return {
    success: result.success ? 1 : 0,
    message: result.message,
    text,
    history,
    audioUrl,
    genimage: 0,
    options: { splitCount: parts.length, splitMessages: parts, picDesc: "" },
  };
}

/** spec 7 `mute`: "1" or "true" means the reply is not spoken. */
export function isMuted(mute: string | undefined): boolean {
  return mute === "1" || mute === "true";
}

/**
 * Longest silence of an open event stream, milliseconds (issue 13): a comment line is sent this
 * often while the model is silent, so proxies that cut idle connections keep the stream.
 */
export const SSE_HEARTBEAT_MS = 15_000;

/** A streamed answer is asked for with `Accept: text/event-stream` or the field `stream=1`. */
function wantsStream(request: FastifyRequest, stream: string | undefined): boolean {
  return stream === "1" || (request.headers.accept ?? "").includes("text/event-stream");
}

/**
 * Opens a server-sent events answer: `entry` (the stored message), `token` ({text}) as the reply
 * is generated, then `done` (the same JSON as the plain answer) or `error` ({success: 0, message,
 * status}). The reply goes on to the end and is stored even if the browser goes away. While the
 * stream is open a comment line (`: keep-alive`) is sent every SSE_HEARTBEAT_MS, which clients
 * ignore, so a silent model does not leave the connection idle.
 */
function openEventStream(reply: FastifyReply) {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    connection: "keep-alive",
    "x-accel-buffering": "no",
    "x-content-type-options": "nosniff",
  });
  const open = () => !raw.writableEnded && !raw.destroyed;
  const heartbeat = setInterval(() => {
    if (open()) raw.write(": keep-alive\n\n");
  }, SSE_HEARTBEAT_MS);
  const end = () => {
    clearInterval(heartbeat);
    raw.end();
  };
  raw.on("close", () => clearInterval(heartbeat));
  const send = (event: string, data: unknown) => {
    if (open()) raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  return {
    send: (event: string, data: unknown) => {
      send(event, data);
      if (event === "done") end();
    },
    fail(error: unknown, log: FastifyBaseLogger) {
      const status = error instanceof AppError ? error.status : 500;
      if (status >= 500) log.error(error);
      const message =
        error instanceof AppError ? error.message : "Something went wrong on our side. Please try again.";
      send("error", { success: 0, message, status });
      end();
    },
  };
}

/** spec 7 `chat/group/reply`: message, id (the group), plus our client message id. */
const GroupReplyBody = MessageBody.pick({ message: true, id: true, clientMessageId: true, mute: true });
const NewChatQuery = z.object({ id: z.string().max(100).default(""), uid: z.string().max(100).optional() });
const GroupNewQuery = z.object({ cId: z.uuid("must be a character id") });
const GroupMemberQuery = z.object({
  gId: z.uuid("must be a group id"),
  cId: z.uuid("must be a character id"),
});

/** spec 7 "Chat" (issue 2 subset): profile, history pages and sending a message. */
export function chatRoutes(
  app: FastifyInstance,
  chat: ChatService,
  auth: onRequestAsyncHookHandler,
  voice?: VoiceService,
  /** issue 8: a reply to a message asking for a picture carries one (genimage 1). */
  pictures?: PictureOffer,
): void {
  app.get("/api/chat/profile/", { onRequest: auth }, async (request) => {
    const user = currentUser(request);
    const query = parseInput(ProfileQuery, request.query);
    assertSelf(user.id, query.uid);
    const { chat: resolved } = await chat.profile(user, query.id);
    const info: ChatProfileInfo = {
      userPicture: user.picture,
      userName: user.user_name,
      name: user.full_name,
      characters: resolved.members.map((m) => ({
        ...presentProfileCharacter(m, resolved.groupId),
        greeting: fillPlaceholders(m.greeting, m.name, displayName(user)),
      })),
    };
    return { ...ok("Chat profile."), info };
  });

  app.get("/api/chat/history/paginated", { onRequest: auth }, async (request) => {
    const user = currentUser(request);
    const query = parseInput(HistoryQuery, request.query);
    assertSelf(user.id, query.uId);
    const rows = await chat.historyPage(user, query.id, query.offset, query.limit);
    return ok("History.", { data: rows.map(presentHistoryEntry) });
  });

  app.get("/api/chat/history", { onRequest: auth }, async (request) => {
    const user = currentUser(request);
    const query = parseInput(HistoryQuery, request.query);
    assertSelf(user.id, query.uId);
    const rows = await chat.historyPage(user, query.id, 0, 100);
    return ok("History.", { data: { data: rows.map(presentHistoryEntry) } });
  });

  app.post("/api/chat/message", { onRequest: auth }, async (request, reply) => {
    const user = currentUser(request);
    const body = parseInput(MessageBody, request.body);
    const input = {
      message: body.message,
      chatId: body.id,
      characterId: body.cId,
      clientMessageId: body.clientMessageId,
    };
    // issue 7: the reply is spoken unless muted (spec 7 `mute`).
    const speaks = voice && !isMuted(body.mute);
    if (!wantsStream(request, body.stream)) {
      const result = await chat.sendMessage(user, input);
      request.modelMs = result.modelMs;
      const answer = presentReply(result, speaks ? await voice.replyAudio(user, result.entry) : "");
      return withPicture(answer, pictures, user, body.message, result.entry, (e) => request.log.error(e));
    }
    const events = openEventStream(reply);
    // Each sentence is spoken as soon as it is written: event `audio` (SentenceAudio).
    const speaker = speaks ? voice.replySpeaker(user, (audio) => events.send("audio", audio)) : undefined;
    try {
      const result = await chat.sendMessage(user, {
        ...input,
        onStored: (entry) => {
          events.send("entry", presentHistoryEntry(entry));
          speaker?.start(entry);
        },
        onToken: (text) => {
          events.send("token", { text });
          speaker?.push(text);
        },
      });
      const answer = presentReply(result, speaker ? await speaker.finish(result.entry) : "");
      events.send(
        "done",
        await withPicture(answer, pictures, user, body.message, result.entry, (e) => request.log.error(e)),
      );
    } catch (error) {
      events.fail(error, request.log);
    }
  });

  app.post("/api/chat/continue-message", { onRequest: auth }, async (request, reply) => {
    const user = currentUser(request);
    const body = parseInput(EntryBody, request.body);
    if (!wantsStream(request, body.stream)) {
      const result = await chat.continueReply(user, body.id);
      request.modelMs = result.modelMs;
      return presentReply(result);
    }
    const events = openEventStream(reply);
    try {
      const result = await chat.continueReply(user, body.id, (text) => events.send("token", { text }));
      events.send("done", presentReply(result));
    } catch (error) {
      events.fail(error, request.log);
    }
  });

  app.post("/api/chat/stop", { onRequest: auth }, async (request) => {
    const body = parseInput(EntryBody, request.body);
    const stopped = await chat.stop(currentUser(request), body.id);
    return ok(stopped ? "Stopped." : "Nothing is being generated for this message.");
  });

  app.get("/api/chat/new", { onRequest: auth }, async (request) => {
    const user = currentUser(request);
    const query = parseInput(NewChatQuery, request.query);
    assertSelf(user.id, query.uid);
    const page = await chat.newChat(user, query.id);
    return ok("Your chat history has been deleted.", { page });
  });

  app.get("/api/chat/group/new", { onRequest: auth }, async (request) => {
    const query = parseInput(GroupNewQuery, request.query);
    const page = await chat.newGroup(currentUser(request), query.cId);
    return ok("Group created.", { page });
  });

  app.get("/api/chat/group/member/add", { onRequest: auth }, async (request) => {
    const query = parseInput(GroupMemberQuery, request.query);
    const page = await chat.addGroupMember(currentUser(request), query.gId, query.cId);
    return ok("Member added.", { page });
  });

  app.get("/api/chat/group/member/remove", { onRequest: auth }, async (request) => {
    const query = parseInput(GroupMemberQuery, request.query);
    const page = await chat.removeGroupMember(currentUser(request), query.gId, query.cId);
    return ok("Member removed.", { page });
  });

  app.post("/api/chat/group/reply", { onRequest: auth }, async (request) => {
    const body = parseInput(GroupReplyBody, request.body);
    const user = currentUser(request);
    const result = await chat.groupReply(user, {
      message: body.message,
      chatId: body.id,
      clientMessageId: body.clientMessageId,
    });
    request.modelMs = result.modelMs;
    // issue 7: each member's answer is spoken in its own voice (chatHistoryReplyAudioUrl) unless muted.
    if (voice && !isMuted(body.mute)) {
      for (const entry of result.entries) await voice.replyAudio(user, entry);
    }
    return {
      success: result.success ? 1 : 0,
      message: result.message,
      whoReplies: result.whoReplies,
      history: result.entries.map(presentHistoryEntry),
    };
  });
}
