import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../env";
import { TINY_MODEL_PATH } from "../../testing/server";
import { createLlm, DOWNLOADING_MESSAGE, type ModelDownloadRequest, type ModelFetcher } from "./index";
import { downloadProgress, NOT_CONFIGURED_MESSAGE } from "./llm";

/**
 * A simulated model download (this machine has no internet): the test reports bytes through the
 * request's `onProgress`, then finishes the download with a path or fails it.
 */
function simulatedFetcher(reachable = true) {
  let request: ModelDownloadRequest | undefined;
  let finish!: (modelPath: string) => void;
  let fail!: (error: Error) => void;
  const result = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const fetcher: ModelFetcher = {
    reachable: async () => reachable,
    download: (r) => {
      request = r;
      return result;
    },
  };
  return {
    fetcher,
    /** The download's request, once the provider asked for it. */
    started: () => request,
    progress: (done: number, total: number | null) => request!.onProgress(done, total),
    finish,
    fail,
  };
}

/** A config that downloads the default model into a fresh data directory. */
function downloadingConfig() {
  return loadConfig({
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "llm-download-")),
    LLM_AUTO_DOWNLOAD: "1",
  });
}

const base = { DATA_DIR: os.tmpdir(), LLM_AUTO_DOWNLOAD: "0" };

describe("choosing the language-model provider from configuration", () => {
  it("picks openai when LLM_BASE_URL is set, and insists on a model name", () => {
    const lines: string[] = [];
    const { llm } = createLlm(
      loadConfig({ ...base, LLM_BASE_URL: "http://127.0.0.1:9/v1", LLM_MODEL: "m" }),
      (l) => lines.push(l),
    );
    expect(llm.name).toBe("openai");
    expect(() =>
      createLlm(loadConfig({ ...base, LLM_PROVIDER: "openai", LLM_BASE_URL: "http://x/v1" }), () => {}),
    ).toThrow(/LLM_MODEL/);
  });

  it("picks llama when LLM_MODEL_PATH is set and loads it once", async () => {
    const lines: string[] = [];
    const { llm, ready } = createLlm(
      loadConfig({ ...base, LLM_MODEL_PATH: TINY_MODEL_PATH, LLM_THREADS: "1" }),
      (l) => lines.push(l),
    );
    await ready;
    expect(llm.name).toBe("llama");
    expect(llm.status().ready).toBe(true);
    expect(lines).toEqual([expect.stringMatching(/^Language model loaded: /)]);
    await llm.close();
  });

  it("without a model tells the operator, in one line, how to configure one; chats fail saying an administrator has to connect one", async () => {
    const lines: string[] = [];
    const { llm, ready } = createLlm(loadConfig(base), (l) => lines.push(l));
    await ready;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/LLM_MODEL_PATH.*LLM_BASE_URL/);
    expect(llm.status().ready).toBe(false);
    await expect(llm.generate({ messages: [], maxTokens: 1 })).rejects.toThrow(NOT_CONFIGURED_MESSAGE);
    expect(NOT_CONFIGURED_MESSAGE).not.toMatch(/LLM_/);
  });

  it("with LLM_PROVIDER=none logs the operator's instruction once; users read that an administrator has to connect a model", async () => {
    const lines: string[] = [];
    const { llm, ready } = createLlm(loadConfig({ ...base, LLM_PROVIDER: "none" }), (l) => lines.push(l));
    await ready;
    expect(lines).toEqual([expect.stringMatching(/^No language model: .*LLM_MODEL_PATH.*LLM_BASE_URL/)]);
    expect(llm.status()).toEqual({ ready: false, message: NOT_CONFIGURED_MESSAGE });
  });

  it("rejects invalid configuration at start with the variable's name", () => {
    expect(() => loadConfig({ LLM_PROVIDER: "gpt" })).toThrow(/LLM_PROVIDER/);
    expect(() => loadConfig({ PORT: "http" })).toThrow(/PORT/);
  });

  it("while the default model downloads, the status carries the progress, then drops it when the model is loaded", async () => {
    const sim = simulatedFetcher();
    const config = downloadingConfig();
    const lines: string[] = [];
    const { llm, ready } = createLlm(config, (l) => lines.push(l), { fetcher: sim.fetcher });
    await expect.poll(() => sim.started()).toBeDefined();
    expect(sim.started()).toMatchObject({
      uri: config.LLM_DEFAULT_MODEL_URI,
      dir: path.join(config.dataDir, "models"),
    });
    // Started, nothing known yet.
    expect(llm.status()).toEqual({
      ready: false,
      message: DOWNLOADING_MESSAGE,
      download: { doneBytes: 0, totalBytes: null, percent: null },
    });
    sim.progress(1_000, 0);
    expect(llm.status().download).toEqual({ doneBytes: 1_000, totalBytes: null, percent: null });
    sim.progress(250_000, 1_000_000);
    expect(llm.status().download).toEqual({ doneBytes: 250_000, totalBytes: 1_000_000, percent: 25 });
    sim.progress(999_999, 1_000_000);
    expect(llm.status().download?.percent).toBe(99);
    await expect(llm.generate({ messages: [], maxTokens: 1 })).rejects.toThrow(/being downloaded/);

    sim.finish(TINY_MODEL_PATH);
    await ready;
    expect(llm.name).toBe("llama");
    expect(llm.status()).toEqual({ ready: true, message: "ready" });
    expect(lines).toEqual([expect.stringMatching(/^Language model loaded: /)]);
    await llm.close();
  });

  it("a failed download drops the progress, logs how to configure a model and tells users an administrator has to; offline never starts one", async () => {
    const sim = simulatedFetcher();
    const lines: string[] = [];
    const { llm, ready } = createLlm(downloadingConfig(), (l) => lines.push(l), { fetcher: sim.fetcher });
    await expect.poll(() => sim.started()).toBeDefined();
    sim.progress(10, 100);
    expect(llm.status().download?.percent).toBe(10);
    sim.fail(new Error("connection reset"));
    await ready;
    expect(llm.status()).toEqual({ ready: false, message: NOT_CONFIGURED_MESSAGE });
    expect(lines).toEqual([
      expect.stringMatching(/downloading .* failed \(Error: connection reset\).*LLM_MODEL_PATH/),
    ]);

    const offline = simulatedFetcher(false);
    const quiet = createLlm(downloadingConfig(), () => {}, { fetcher: offline.fetcher });
    await quiet.ready;
    expect(offline.started()).toBeUndefined();
    expect(quiet.llm.status().download).toBeUndefined();
  });

  it("computes the progress from byte counts: rounded down, capped at 100, unknown size gives null", () => {
    expect(downloadProgress(1, 3)).toEqual({ doneBytes: 1, totalBytes: 3, percent: 33 });
    expect(downloadProgress(5, 4)).toEqual({ doneBytes: 5, totalBytes: 4, percent: 100 });
    expect(downloadProgress(7, null)).toEqual({ doneBytes: 7, totalBytes: null, percent: null });
    expect(downloadProgress(7, Number.NaN).percent).toBeNull();
    expect(downloadProgress(-1, 10)).toEqual({ doneBytes: 0, totalBytes: 10, percent: 0 });
  });
});
