import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * The chat's one audio player (product.md §4 "Audio", product.md §8, 9): one audio at a time, selecting the
 * one playing stops it, autoplay retried 3 times at 500 ms, no autoplay on Apple systems.
 */
class FakeAudio {
  static made: FakeAudio[] = [];
  /** How many play() calls fail before one succeeds. */
  static failures = 0;
  plays = 0;
  paused = false;
  private readonly listeners = new Map<string, () => void>();
  constructor(readonly src: string) {
    FakeAudio.made.push(this);
  }
  addEventListener(event: string, listener: () => void) {
    this.listeners.set(event, listener);
  }
  play(): Promise<void> {
    this.plays += 1;
    if (FakeAudio.failures > 0) {
      FakeAudio.failures -= 1;
      return Promise.reject(new Error("NotAllowedError"));
    }
    return Promise.resolve();
  }
  pause() {
    this.paused = true;
  }
  sinkId = "";
  setSinkId(id: string): Promise<void> {
    this.sinkId = id;
    return Promise.resolve();
  }
  end() {
    this.listeners.get("ended")?.();
  }
}

async function load(userAgent = "Mozilla/5.0 (X11; Linux x86_64) Chrome/140") {
  vi.resetModules();
  vi.stubGlobal("window", globalThis);
  vi.stubGlobal("navigator", { userAgent });
  vi.stubGlobal("Audio", FakeAudio);
  return (await import("./audioPlayer")).audioPlayer;
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeAudio.made = [];
  FakeAudio.failures = 0;
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("audio player", () => {
  it("plays one audio at a time: a new one stops the first; selecting the one playing stops it", async () => {
    const player = await load();
    player.play(["/a.mp3"]);
    player.play(["/b.mp3"]);
    expect(FakeAudio.made[0]!.paused).toBe(true);
    expect(player.currentUrl).toBe("/b.mp3");
    player.toggle("/b.mp3");
    expect(FakeAudio.made[1]!.paused).toBe(true);
    expect(player.currentUrl).toBe("");
  });

  it("retries a failed autoplay 3 times, 500 ms apart, then gives up", async () => {
    const player = await load();
    FakeAudio.failures = 10;
    player.autoplay("/r.mp3");
    const audio = FakeAudio.made[0]!;
    await vi.advanceTimersByTimeAsync(0);
    expect(audio.plays).toBe(1);
    await vi.advanceTimersByTimeAsync(499);
    expect(audio.plays).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(audio.plays).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(audio.plays).toBe(4);
    await vi.advanceTimersByTimeAsync(5000);
    expect(audio.plays).toBe(4);
    expect(player.currentUrl).toBe("");
  });

  it("a retry that succeeds keeps playing", async () => {
    const player = await load();
    FakeAudio.failures = 2;
    player.autoplay("/r.mp3");
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeAudio.made[0]!.plays).toBe(3);
    expect(player.currentUrl).toBe("/r.mp3");
  });

  it("plays streamed sentences in turn and tells when it is idle", async () => {
    const player = await load();
    player.autoplay("/s0.mp3");
    player.autoplay("/s1.mp3", true);
    let idle = false;
    void player.idle().then(() => {
      idle = true;
    });
    expect(player.currentUrl).toBe("/s0.mp3");
    FakeAudio.made[0]!.end();
    expect(player.currentUrl).toBe("/s1.mp3");
    FakeAudio.made[1]!.end();
    await vi.advanceTimersByTimeAsync(0);
    expect(player.currentUrl).toBe("");
    expect(idle).toBe(true);
  });

  it("never autoplays on Apple systems (a tap still plays)", async () => {
    const player = await load("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1");
    player.autoplay("/x.mp3");
    expect(FakeAudio.made.length).toBe(0);
    player.toggle("/x.mp3");
    expect(FakeAudio.made.length).toBe(1);
  });

  it("a reply is busy while any of its sentences plays or waits; its Stop ends the whole queue", async () => {
    const player = await load();
    player.autoplay("/s0.mp3", false, "entry-1");
    player.autoplay("/s1.mp3", true, "entry-1");
    player.autoplay("/s2.mp3", true, "entry-1");
    // The reply's button knows only the whole reply's URL, and the owner.
    expect(player.isBusy("/whole.mp3", "entry-1")).toBe(true);
    expect(player.isBusy("/whole.mp3", "entry-2")).toBe(false);
    expect(player.isBusy("/whole.mp3")).toBe(false);
    FakeAudio.made[0]!.end();
    expect(player.currentUrl).toBe("/s1.mp3");
    expect(player.isBusy("/whole.mp3", "entry-1")).toBe(true);
    player.toggle("/whole.mp3", "entry-1");
    expect(FakeAudio.made[1]!.paused).toBe(true);
    expect(player.currentUrl).toBe("");
    expect(player.isBusy("/whole.mp3", "entry-1")).toBe(false);
    // Nothing of the stopped queue plays on.
    FakeAudio.made[1]!.end();
    expect(FakeAudio.made.length).toBe(2);
    // Selecting it again plays the whole reply.
    player.toggle("/whole.mp3", "entry-1");
    expect(player.currentUrl).toBe("/whole.mp3");
    expect(player.currentOwner).toBe("entry-1");
  });

  it("callers without an owner keep working: two arguments, the URL is its own owner", async () => {
    const player = await load();
    player.autoplay("/a.mp3");
    player.autoplay("/b.mp3", true);
    expect(player.isBusy("/b.mp3")).toBe(true);
    expect(player.isBusy("/c.mp3")).toBe(false);
    player.toggle("/b.mp3");
    expect(player.currentUrl).toBe("");
  });

  it("plays on the chosen output (Settings 'Bluetooth'), the one playing included", async () => {
    const player = await load();
    player.play(["/a.mp3"]);
    expect(FakeAudio.made[0]!.sinkId).toBe("");
    player.setOutput("bt-1");
    expect(FakeAudio.made[0]!.sinkId).toBe("bt-1");
    player.play(["/b.mp3"]);
    expect(FakeAudio.made[1]!.sinkId).toBe("bt-1");
    player.setOutput("");
    player.play(["/c.mp3"]);
    expect(FakeAudio.made[2]!.sinkId).toBe("");
  });
});
