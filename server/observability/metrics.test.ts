import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { LlmUnavailableError } from "../providers/llm/llm";
import * as metrics from "./metrics";

/** The value of one series in Prometheus' text format (0 when absent). */
async function sample(series: string): Promise<number> {
  const { body } = await metrics.renderMetrics();
  const line = body.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** The functions other code reports through, and what /metrics then shows. */
describe("metrics", () => {
  it("counts replies by outcome, unknown outcomes as other", async () => {
    const before = await sample('companion_chat_replies_total{outcome="replied"}');
    metrics.replyFinished("replied");
    metrics.replyFinished("replied");
    metrics.replyFinished("something-new");
    expect(await sample('companion_chat_replies_total{outcome="replied"}')).toBe(before + 2);
    expect(await sample('companion_chat_replies_total{outcome="other"}')).toBeGreaterThanOrEqual(1);
  });

  it("records time to first token in seconds", async () => {
    const before = await sample("companion_chat_time_to_first_token_seconds_count");
    metrics.firstToken(300);
    expect(await sample("companion_chat_time_to_first_token_seconds_count")).toBe(before + 1);
    expect(await sample('companion_chat_time_to_first_token_seconds_bucket{le="0.25"}')).toBe(
      await sample('companion_chat_time_to_first_token_seconds_bucket{le="0.1"}'),
    );
  });

  it("classes model errors as unavailable, timeout or failed", async () => {
    const read = () =>
      Promise.all(
        ["unavailable", "timeout", "failed"].map((reason) =>
          sample(`companion_model_errors_total{reason="${reason}"}`),
        ),
      );
    const before = await read();
    metrics.modelError(new LlmUnavailableError("still loading"));
    metrics.modelError(new Error("timeout"));
    metrics.modelError(new Error("socket hang up"));
    expect(await read()).toEqual(before.map((n) => n + 1));
  });

  it("counts a stream as active until it closes", async () => {
    const before = await sample("companion_active_streams");
    const stream = new EventEmitter();
    metrics.streamOpened(stream);
    expect(await sample("companion_active_streams")).toBe(before + 1);
    stream.emit("close");
    stream.emit("close");
    expect(await sample("companion_active_streams")).toBe(before);
  });

  it("counts quota refusals and reads queue depths at scrape time", async () => {
    const before = await sample("companion_quota_refusals_total");
    metrics.quotaRefused();
    expect(await sample("companion_quota_refusals_total")).toBe(before + 1);

    let depth = 3;
    metrics.watchQueue("test-background", () => depth);
    metrics.watchQueue("test-broken", () => {
      throw new Error("database down");
    });
    expect(await sample('companion_queue_depth{queue="test-background"}')).toBe(3);
    depth = 0;
    metrics.watchQueue("test-images", async () => 5);
    expect(await sample('companion_queue_depth{queue="test-background"}')).toBe(0);
    expect(await sample('companion_queue_depth{queue="test-images"}')).toBe(5);
    expect((await metrics.renderMetrics()).body).not.toContain('queue="test-broken"');
  });
});
