// Type-level checks that the server's reply stream emitters take only common/stream-events.ts's events (run by `npm run typecheck`).
import { describe, expect, expectTypeOf, it } from "vitest";
import type { GroupReply, MessageReply } from "../../../common/api";
import type { StreamEmit } from "../../../common/stream-events";
import type { EventStream } from "../../http/sse";
import type { LiveReplies } from "./live-replies";
import { GroupStreamedReply, StreamedReply, sendEvent } from "./reply-stream";
import type { TurnEmit, TurnStream } from "./turn.service";

/*
 * Compile-time tests: `npm run typecheck` fails when a `@ts-expect-error` line compiles, i.e. when
 * an emitter of a streamed reply, a turn, an edit or the follow route would take an unknown event
 * or a payload of another shape. The few calls that run send to a stream that records them.
 */

/** An event stream that records what it would send. */
function recordingStream(): EventStream & { sent: Array<[string, unknown, number | undefined]> } {
  const sent: Array<[string, unknown, number | undefined]> = [];
  return {
    sent,
    send: (event, data, id) => sent.push([event, data, id]),
    fail: () => {},
    end: () => {},
    open: true,
  };
}

describe("the server's reply stream emitters are typed by common/stream-events.ts", () => {
  it("a streamed reply's and a group turn's emit are the union's emitter", () => {
    expectTypeOf<StreamedReply["emit"]>().toEqualTypeOf<StreamEmit>();
    expectTypeOf<GroupStreamedReply["emit"]>().toEqualTypeOf<StreamEmit>();
    expectTypeOf<GroupStreamedReply["finish"]>().parameter(0).toEqualTypeOf<GroupReply>();
    expectTypeOf<TurnStream["emit"]>().toEqualTypeOf<StreamEmit<"entry" | "token" | "audio">>();
  });

  it("a turn (send, continue, regenerate, a group's member) emits only entry, token and audio", () => {
    const emit: TurnEmit = () => {};
    emit("token", { text: "Hel" });
    // @ts-expect-error the turn's end is the route's `done`
    emit("done", { success: 1, message: "Reply." });
    // @ts-expect-error no such event
    emit("member", { characterUUID: "c1" });
    // @ts-expect-error a spoken sentence names its entry, its index and its words
    emit("audio", { audioUrl: "/content/voice/a.mp3" });
  });

  it("a streamed reply refuses a wrong payload, and sends a right one as it is", () => {
    const events = recordingStream();
    const reply = new StreamedReply(events, {} as LiveReplies);
    const done: MessageReply = { success: 1, message: "Reply." };
    reply.emit("done", done);
    expect(events.sent).toEqual([["done", done, 1]]);
    // Type-checked, never run.
    const refused = () => {
      // @ts-expect-error `done` carries an envelope with its message
      reply.emit("done", { success: 1 });
      // @ts-expect-error a token's text is a string
      reply.emit("token", { text: 42 });
    };
    expect(refused).toBeTypeOf("function");
  });

  it("the follow route's `done` and a group's answer go through the same types", () => {
    const events = recordingStream();
    sendEvent(events, 3, "done", { success: 0, message: "This message is still being answered." });
    expect(events.sent).toEqual([
      ["done", { success: 0, message: "This message is still being answered." }, 3],
    ]);
    const group = new GroupStreamedReply(events, {} as LiveReplies);
    // Type-checked, never run.
    const refused = () => {
      // @ts-expect-error the follow stream sends no other event of its own
      sendEvent(events, 3, "stored", { success: 0, message: "" });
      // @ts-expect-error an error event carries the HTTP status
      sendEvent(events, 3, "error", { success: 0, message: "No.", code: "not_found" });
      // @ts-expect-error a group answer is an envelope
      group.finish({ whoReplies: ["c1"] });
    };
    expect(refused).toBeTypeOf("function");
  });
});
