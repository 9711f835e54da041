// The chat routes (product.md §7 "Chat"): sending (plain or streamed), continue, stop, New Chat and audio messages.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import type { MessageReply } from "../../../common/api";
import { assertSelf, currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { answerPlainOrStreamed, type StreamableTurn, type TurnResult } from "../../http/plain-or-streamed";
import { GET_WRITES } from "../../http/route-writes";
import { msg } from "../../i18n/messages";
import { localTimeText } from "../prompt/prompt";
import {
  AudioMessageRoute,
  ContinueRoute,
  isMuted,
  MessageRoute,
  NewChatRoute,
  StopRoute,
} from "./chat.schemas";
import type { ChatService } from "./chat.service";
import type { LiveReplies } from "./live-replies";
import { StreamedReply } from "./reply-stream";
import { resumeRoute } from "./resume.routes";
import type { TurnService } from "./turn.service";

/**
 * product.md §7 "Chat": sending a message (plain or streamed), continuing and stopping a reply, New
 * Chat, and the audio-message call; following a live reply (resume.routes.ts).
 * What a message sets off is the turn service's. Streamed events carry `id: <seq>` and are
 * appended to the entry's live reply (reply-stream.ts).
 */
export async function chatRoutes(
  app: FastifyInstance,
  services: { chat: ChatService; turns: TurnService },
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await signedIn(app, auth, (app) => {
    const { chat, turns } = services;

    app.post("/api/chat/message", { schema: MessageRoute }, async (request, reply) => {
      const user = currentUser(request);
      const { body } = request;
      const input = {
        ...turnInput(body),
        characterId: body.cId,
        // product.md §7 pname, ptext, time (meaning ours): this reply's prompt only, never stored.
        sender: {
          name: body.pname || undefined,
          about: body.ptext || undefined,
          localTime: localTimeText(body.time, Date.now()),
        },
      };
      const turn = oneToOneTurn(chat.live, (events) => turns.send(user, input, events));
      return answerPlainOrStreamed(request, reply, body.stream, turn);
    });

    app.post("/api/chat/continue-message", { schema: ContinueRoute }, async (request, reply) => {
      const user = currentUser(request);
      const { body } = request;
      const turn = oneToOneTurn(chat.live, (events) => turns.continueReply(user, body.id, events));
      return answerPlainOrStreamed(request, reply, body.stream, turn);
    });

    resumeRoute(app, chat);

    app.post("/api/chat/stop", { schema: StopRoute }, async (request) => {
      const stopped = await chat.stop(currentUser(request), request.body.id);
      return ok(stopped ? msg("chat.stopped") : msg("chat.nothingBeingGeneratedMessage"));
    });

    // A GET by the spec that deletes the chat's history (it declares so: GET_WRITES).
    app.get("/api/chat/new", { config: GET_WRITES, schema: NewChatRoute }, async (request) => {
      const user = currentUser(request);
      const { query } = request;
      assertSelf(user.id, query.uid);
      const page = await chat.newChat(user, query.id);
      return ok(msg("chat.chatHistoryBeenDeleted"), { page });
    });

    /** product.md §7 audio-message (path ours): the message-reply shape of `chat/message` with `audioUrl`. */
    app.post("/api/chat/audio-message", { schema: AudioMessageRoute }, async (request) => {
      const { body } = request;
      const answer = await turns.audioMessage(currentUser(request), {
        message: body.message,
        chatId: body.id,
        characterId: body.characterId,
        isGreeting: body.is_greeting === "1" || body.is_greeting === "true",
        mute: isMuted(body.mute),
      });
      request.modelMs = answer.modelMs;
      return answer.reply;
    });
  });
}

/**
 * What a message turn (one-to-one or a group's) takes from its request: the words, the chat, the
 * client's id of the message, and whether the reply is spoken (unless muted, product.md §7 `mute`).
 */
export function turnInput(body: { message: string; id: string; clientMessageId?: string; mute?: string }) {
  return {
    message: body.message,
    chatId: body.id,
    clientMessageId: body.clientMessageId,
    speak: !isMuted(body.mute),
  };
}

/**
 * A one-to-one turn (a message, a continuation, a regeneration) for `answerPlainOrStreamed`:
 * streamed as a StreamedReply on the entry's live reply, ending with `done` and the plain answer.
 */
export function oneToOneTurn<R extends MessageReply>(
  live: LiveReplies,
  run: (events?: StreamedReply) => Promise<TurnResult<R>>,
): StreamableTurn<StreamedReply, R> {
  return {
    events: (sse) => new StreamedReply(sse, live),
    run,
    done: (events, result) => events.emit("done", result.reply),
  };
}
