// Type-level checks of the reply stream's union: each name goes with its own data, nothing else compiles (run by `npm run typecheck`).
import { describe, expectTypeOf, it } from "vitest";
import type { ChatHistoryEntry, GroupReply, MessageReply } from "./api";
import type {
  ReplyStreamArgs,
  ReplyStreamData,
  ReplyStreamEvent,
  ReplyStreamEventName,
  SentenceAudio,
  StreamEmit,
  StreamFailure,
} from "./stream-events";

/*
 * These are compile-time tests: `npm run typecheck` (tsc) fails when a `@ts-expect-error` line
 * compiles (an emitter took a wrong payload) or an `expectTypeOf` does not hold. At run time they
 * only call an emitter that does nothing.
 */

const entry: ChatHistoryEntry = {
  chatHistoryUUID: "e1",
  characterUUID: "c1",
  chatHistoryMessage: "hi",
  chatHistoryMessageImage: "",
  chatHistorySendTime: "2026-01-01T00:00:00.000Z",
  chatHistoryReplyMessage: "",
  chatHistoryReplyImage: "",
  chatHistoryReplyAudioUrl: "",
  chatHistoryReplyTime: "",
  chatHistoryImageLoading: 0,
  chatHistoryStatus: "pending",
};

describe("common/stream-events.ts: the reply stream as one union", () => {
  it("names exactly the events the server sends, each with its data", () => {
    expectTypeOf<ReplyStreamEventName>().toEqualTypeOf<"entry" | "token" | "audio" | "done" | "error">();
    expectTypeOf<ReplyStreamData<"entry">>().toEqualTypeOf<ChatHistoryEntry>();
    expectTypeOf<ReplyStreamData<"token">>().toEqualTypeOf<{ text: string }>();
    expectTypeOf<ReplyStreamData<"audio">>().toEqualTypeOf<SentenceAudio>();
    expectTypeOf<ReplyStreamData<"done">>().toEqualTypeOf<MessageReply | GroupReply>();
    expectTypeOf<ReplyStreamData<"error">>().toEqualTypeOf<StreamFailure>();
    expectTypeOf<ReplyStreamArgs<"token">>().toEqualTypeOf<[event: "token", data: { text: string }]>();
  });

  it("an emitter takes each event with its own data", () => {
    const emit: StreamEmit = () => {};
    emit("entry", entry);
    emit("token", { text: "Hel" });
    emit("audio", { chatHistoryUUID: "e1", index: 0, text: "Hi.", audioUrl: "/content/voice/a.mp3" });
    emit("done", { success: 1, message: "Reply.", history: [entry] });
    emit("done", { success: 1, message: "Replies.", whoReplies: ["c1"], history: [entry], genimage: 0 });
    emit("error", { success: 0, message: "Try again.", code: "internal", status: 500 });
  });

  it("an emitter refuses an unknown event, and a payload of another shape", () => {
    const emit: StreamEmit = () => {};
    // @ts-expect-error no such event: the union has no `status`
    emit("status", { text: "thinking" });
    // @ts-expect-error a token's text is a string
    emit("token", { text: 1 });
    // @ts-expect-error a token is `{ text }`, not the text itself
    emit("token", "Hel");
    // @ts-expect-error an entry is a whole ChatHistoryEntry, not its id
    emit("entry", { chatHistoryUUID: "e1" });
    // @ts-expect-error a spoken sentence names its entry
    emit("audio", { index: 0, text: "Hi.", audioUrl: "/content/voice/a.mp3" });
    // @ts-expect-error `done` carries an envelope (success, message)
    emit("done", { success: 1 });
    // @ts-expect-error `error` carries the failure envelope with a code and the HTTP status
    emit("error", { success: 0, message: "Try again." });
    // @ts-expect-error a stable code of common/errors.ts
    emit("error", { success: 0, message: "Try again.", code: "oops", status: 500 });
    // @ts-expect-error the data of another event
    emit("entry", { text: "Hel" });
  });

  it("an emitter of some events refuses the others", () => {
    const turn: StreamEmit<"entry" | "token" | "audio"> = () => {};
    turn("token", { text: "Hel" });
    // @ts-expect-error a turn's end is the route's, not the turn's
    turn("done", { success: 1, message: "Reply." });
    expectTypeOf<StreamEmit>().toExtend<StreamEmit<"entry" | "token" | "audio">>();
  });

  it("a name and data of different events, held in variables, do not pass together", () => {
    const emit: StreamEmit = () => {};
    const name = "token" as "token" | "entry";
    const data: { text: string } | ChatHistoryEntry = { text: "Hel" };
    // @ts-expect-error the pair may be ["entry", { text }]
    emit(name, data);
    const event: ReplyStreamEvent = { event: "token", data: { text: "Hel" } };
    if (event.event === "token") emit(event.event, event.data);
  });
});
