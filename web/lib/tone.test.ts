import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * The chat's synthesized sounds (product.md §4 "Voice chat", "Audio", product.md §8, 9): the voice-chat cue
 * 300 ms after listening starts, the reply notice 1000 ms after a reply, and no error where the
 * browser has no audio context.
 */
class FakeContext {
  static started: number[] = [];
  currentTime = 0;
  destination = {};
  createOscillator() {
    const param = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
    return {
      type: "",
      frequency: param,
      connect: (node: unknown) => node,
      start: (at: number) => FakeContext.started.push(at),
      stop() {},
    };
  }
  createGain() {
    const node = {
      gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} },
      connect: (next: unknown) => next,
    };
    return node;
  }
}

async function load() {
  vi.resetModules();
  vi.stubGlobal("window", globalThis);
  return {
    cue: await import("./voiceCue"),
    reply: await import("./replySound"),
    tone: await import("./tone"),
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeContext.started = [];
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("chat sounds", () => {
  it("the voice-chat cue plays 300 ms after listening starts, not at 299 ms (product.md §4, 9)", async () => {
    vi.stubGlobal("AudioContext", FakeContext);
    const { cue } = await load();
    cue.scheduleVoiceCue();
    await vi.advanceTimersByTimeAsync(299);
    expect(FakeContext.started.length).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeContext.started.length).toBe(1);
  });

  it("a cancelled cue stays silent (listening stopped first)", async () => {
    vi.stubGlobal("AudioContext", FakeContext);
    const { cue } = await load();
    const cancel = cue.scheduleVoiceCue();
    await vi.advanceTimersByTimeAsync(100);
    cancel();
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeContext.started.length).toBe(0);
  });

  it("the reply notice sounds 1000 ms after a reply, not at 999 ms: two tones (product.md §4, 9)", async () => {
    vi.stubGlobal("AudioContext", FakeContext);
    const { reply } = await load();
    reply.playReplySound();
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeContext.started.length).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeContext.started).toEqual([0, 0.12]);
  });

  it("a browser without an audio context is not an error: silent, nothing thrown or logged (product.md §8)", async () => {
    vi.stubGlobal("AudioContext", undefined);
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { cue, reply, tone } = await load();
    expect(() =>
      tone.playTones([{ frequency: 440, start: 0, peak: 0.1, fade: 0.1, stop: 0.1 }], "t"),
    ).not.toThrow();
    expect(() => cue.playVoiceCue()).not.toThrow();
    reply.playReplySound();
    cue.scheduleVoiceCue();
    await vi.advanceTimersByTimeAsync(2000);
    expect(error).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });

  it("a browser that refuses the audio context stays silent and only logs a warning", async () => {
    vi.stubGlobal(
      "AudioContext",
      class {
        constructor() {
          throw new Error("NotAllowedError");
        }
      },
    );
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { cue } = await load();
    expect(() => cue.playVoiceCue()).not.toThrow();
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
