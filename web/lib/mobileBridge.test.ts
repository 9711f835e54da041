import { afterEach, describe, expect, it, vi } from "vitest";

/** The mobile-wrapper bridge of voice chat (product.md §4): its message contract. */
async function load(bridge?: { postMessage(message: string): void }) {
  vi.resetModules();
  const target = new EventTarget();
  const fakeWindow = Object.assign(target, { CompanionBridge: bridge });
  vi.stubGlobal("window", fakeWindow);
  const module = await import("./mobileBridge");
  const deliver = (data: unknown, source: unknown = fakeWindow) =>
    target.dispatchEvent(Object.assign(new Event("message"), { data, source }));
  return { ...module, deliver };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("mobile wrapper bridge", () => {
  it("is there only when the wrapper injected CompanionBridge.postMessage", async () => {
    expect((await load()).mobileBridge()).toBeUndefined();
    expect((await load({ postMessage() {} })).mobileBridge()).toBeDefined();
  });

  it("reads the wrapper's messages as objects or JSON strings and ignores the rest", async () => {
    const { parseWrapperMessage } = await load();
    expect(parseWrapperMessage({ type: "companion:transcript", text: "hi" })).toEqual({
      type: "transcript",
      text: "hi",
    });
    expect(parseWrapperMessage('{"type":"companion:error","error":"not-allowed"}')).toEqual({
      type: "error",
      error: "not-allowed",
    });
    expect(parseWrapperMessage({ type: "companion:transcript" })).toEqual({ type: "transcript", text: "" });
    expect(parseWrapperMessage({ type: "other" })).toBeUndefined();
    expect(parseWrapperMessage("not json")).toBeUndefined();
    expect(parseWrapperMessage(null)).toBeUndefined();
  });

  it("asks the wrapper to listen, hands over one transcript, and stops only while listening", async () => {
    const sent: string[] = [];
    const { listenThroughWrapper, deliver } = await load({ postMessage: (m) => sent.push(m) });
    const onTranscript = vi.fn();
    const onSpeaking = vi.fn();
    const stop = listenThroughWrapper(
      { language: "de", silenceMs: 2000 },
      { onTranscript, onError: vi.fn(), onSpeaking },
    );
    expect(JSON.parse(sent[0]!)).toEqual({ type: "startListening", language: "de", silenceMs: 2000 });
    deliver({ type: "companion:transcript", text: "from a frame" }, {});
    expect(onTranscript).not.toHaveBeenCalled();
    deliver({ type: "companion:speaking" });
    expect(onSpeaking).toHaveBeenCalledTimes(1);
    deliver(JSON.stringify({ type: "companion:transcript", text: "Hallo" }));
    deliver({ type: "companion:transcript", text: "again" });
    expect(onTranscript.mock.calls).toEqual([["Hallo"]]);
    stop();
    expect(sent.length).toBe(1);
  });

  it("a stop while listening tells the wrapper; an error ends the session", async () => {
    const sent: string[] = [];
    const { listenThroughWrapper, deliver } = await load({ postMessage: (m) => sent.push(m) });
    const stop = listenThroughWrapper(
      { language: "en", silenceMs: 1000 },
      { onTranscript: vi.fn(), onError: vi.fn() },
    );
    stop();
    expect(JSON.parse(sent[1]!)).toEqual({ type: "stopListening" });
    const onError = vi.fn();
    listenThroughWrapper({ language: "en", silenceMs: 1000 }, { onTranscript: vi.fn(), onError });
    deliver({ type: "companion:error", error: "not-allowed" });
    expect(onError).toHaveBeenCalledWith("not-allowed");
  });
});
