import fs from "node:fs";

/** What the benchmarks share: percentiles, a process's CPU time from /proc, timing a stream. */

/** The `p`th percentile of `values` (nearest rank), NaN when empty. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/**
 * User and system CPU time of a process so far, ms (Linux /proc, 100 ticks a second); with `tid`,
 * of that one thread (`tid` = `pid`: the main thread, where a Node.js event loop runs).
 */
export function cpuSplit(pid: number, tid?: number): { user: number; system: number } {
  const file = tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`;
  const fields = fs.readFileSync(file, "utf8").split(") ")[1]!.split(" ");
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

/** CPU time (user + system) of a process (or with `tid`, one of its threads) so far, ms. */
export function cpuMs(pid: number, tid?: number): number {
  const { user, system } = cpuSplit(pid, tid);
  return user + system;
}

/**
 * Reads a streamed answer to its end. @returns ms from `started` to the first `marker` and to
 * the end. @throws Error when the marker never came (the answer's start is in the message).
 */
export async function timeStream(
  response: Response,
  started: number,
  marker: string,
): Promise<{ first: number; end: number }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let first = Number.NaN;
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (Number.isNaN(first)) {
      text += decoder.decode(value, { stream: true });
      if (text.includes(marker)) first = performance.now() - started;
    }
  }
  if (Number.isNaN(first))
    throw new Error(`no ${JSON.stringify(marker)} in the answer: ${text.slice(0, 300)}`);
  return { first, end: performance.now() - started };
}
