// Long tasks in a page, by phase of a streamed reply (sending, streaming, the end) or of opening a chat: the page-side recorder and the sorting of its records.

/**
 * What the page records (by its own clock, `performance.now()` ms): every long task (a main-thread
 * task of 50 ms or more, `longtask` entries) as [start, duration], the tap that sent the
 * message (its pointerdown: the latest one before the reply's bubble streamed), when the reply's bubble started streaming (an `article[aria-busy="true"]` appeared) and
 * when it stopped (no such article any more), and when the first message bubble showed in the
 * message list.
 */
export interface PageRecord {
  tasks: Array<[number, number]>;
  clickAt: number;
  streamStart: number;
  streamEnd: number;
  firstBubble: number;
  /**
   * Every long animation frame (`long-animation-frame` entries, frames of 50 ms or more), where
   * the browser supports them: its start and duration, when its rendering (rAF callbacks, then
   * style and layout) started, and its scripts with their own durations and forced style and layout.
   */
  frames: LongFrame[];
}

/** One long animation frame (ms by the page's clock); see `PageRecord.frames`. */
export interface LongFrame {
  start: number;
  duration: number;
  renderStart: number;
  styleAndLayoutStart: number;
  scripts: Array<{ invoker: string; source: string; start: number; duration: number; forcedLayout: number }>;
}

/**
 * The recorder, run in the page before any of its scripts (`addInitScript`). It keeps its record
 * in `window.__longTasks` and observes only what it needs (`aria-busy` and added or removed
 * nodes), so that it adds little to the tasks it measures.
 */
export function recordLongTasks(): void {
  const record: PageRecord = {
    tasks: [],
    clickAt: -1,
    streamStart: -1,
    streamEnd: -1,
    firstBubble: -1,
    frames: [],
  };
  (window as unknown as { __longTasks: PageRecord }).__longTasks = record;
  new PerformanceObserver((entries) => {
    for (const entry of entries.getEntries()) record.tasks.push([entry.startTime, entry.duration]);
  }).observe({ type: "longtask", buffered: true });
  if (PerformanceObserver.supportedEntryTypes.includes("long-animation-frame"))
    new PerformanceObserver((entries) => {
      for (const entry of entries.getEntries()) {
        const frame = entry as PerformanceEntry & {
          renderStart: number;
          styleAndLayoutStart: number;
          scripts: Array<{
            invoker: string;
            sourceFunctionName: string;
            sourceURL: string;
            sourceCharPosition: number;
            startTime: number;
            duration: number;
            forcedStyleAndLayoutDuration: number;
          }>;
        };
        record.frames.push({
          start: frame.startTime,
          duration: frame.duration,
          renderStart: frame.renderStart,
          styleAndLayoutStart: frame.styleAndLayoutStart,
          scripts: frame.scripts.map((script) => ({
            invoker: script.invoker,
            source: `${script.sourceFunctionName} ${script.sourceURL.split("/").pop()}:${script.sourceCharPosition}`,
            start: script.startTime,
            duration: script.duration,
            forcedLayout: script.forcedStyleAndLayoutDuration,
          })),
        });
      }
    }).observe({ type: "long-animation-frame", buffered: true });
  // The tap's first event (a touch's pointerdown comes before its click). The latest one before the
  // reply streams: a reply's run reads up through a long chat first and taps 'Scroll to bottom',
  // unthrottled, and that tap's task (the newest bubbles rendered anew) is not the send's.
  document.addEventListener(
    "pointerdown",
    () => {
      if (record.streamStart < 0) record.clickAt = performance.now();
    },
    true,
  );
  // Only a message added or removed, or its aria-busy changed, can change the record: a token's
  // mutations inside a bubble are passed over without querying the page. (No named helper here:
  // the function is sent to the page as its source, without the bundler's helpers.)
  new MutationObserver((records) => {
    const aboutMessages = records.some(
      (r) =>
        r.type === "attributes" ||
        [...r.addedNodes, ...r.removedNodes].some(
          (node) =>
            node instanceof Element && (node.tagName === "ARTICLE" || node.querySelector("article") !== null),
        ),
    );
    if (!aboutMessages) return;
    // A bubble in the message list (the chat's hidden font warm-up has bubbles of its own, off the list).
    if (record.firstBubble < 0 && document.querySelector('[role="log"] article.message'))
      record.firstBubble = performance.now();
    if (record.clickAt < 0 || record.streamEnd >= 0) return;
    const busy = document.querySelector('article[aria-busy="true"]') !== null;
    if (busy && record.streamStart < 0) record.streamStart = performance.now();
    else if (!busy && record.streamStart >= 0) record.streamEnd = performance.now();
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["aria-busy"] });
}

/** The long tasks of one phase: how many, the longest and their sum, ms. */
export interface PhaseTasks {
  count: number;
  maxMs: number;
  totalMs: number;
}

/** `durations` summed up as a phase's long tasks. */
export function phaseTasks(durations: number[]): PhaseTasks {
  return {
    count: durations.length,
    maxMs: Math.max(0, ...durations),
    totalMs: durations.reduce((sum, duration) => sum + duration, 0),
  };
}

/** How far before the stream's end mark a task may end and still be the task that made it, ms. */
const END_SLACK_MS = 2;

/**
 * A streamed reply's long tasks by phase:
 * - sending: from the click to the reply's bubble streaming (tasks that start before it);
 * - streaming: from then to its end (tasks that start after the bubble streams and end before
 *   it stops);
 * - the end: the task in which the bubble stopped streaming and every task after it (up to the
 *   settle time the caller waited). The recorder marks the stop in that task's own microtasks,
 *   so the task ends at or after the mark; but a long task entry's times are coarser than the
 *   page's clock (one run's end task of 72 ms ended 1 ms before the mark), so a task ending less
 *   than `END_SLACK_MS` before the mark is that task.
 * A task that ended before the click (typing the message, opening the chat) counts in none.
 * @throws Error when the record lacks the click or the stream's start or end.
 */
export function replyPhases(record: PageRecord): {
  sending: PhaseTasks;
  streaming: PhaseTasks;
  end: PhaseTasks;
} {
  const { clickAt, streamStart, streamEnd } = record;
  if (clickAt < 0 || streamStart < 0 || streamEnd < 0)
    throw new Error(`incomplete record: click ${clickAt}, stream ${streamStart} to ${streamEnd}`);
  const after = record.tasks.filter(([start, duration]) => start + duration > clickAt);
  const sending = after.filter(([start]) => start < streamStart);
  const endsAtStop = (start: number, duration: number) => start + duration + END_SLACK_MS >= streamEnd;
  const streaming = after.filter(([start, duration]) => start >= streamStart && !endsAtStop(start, duration));
  const end = after.filter(([start, duration]) => start >= streamStart && endsAtStop(start, duration));
  const durations = (tasks: Array<[number, number]>) => tasks.map(([, duration]) => duration);
  return {
    sending: phaseTasks(durations(sending)),
    streaming: phaseTasks(durations(streaming)),
    end: phaseTasks(durations(end)),
  };
}

/** The median of `values` (the lower middle one of an even count); NaN for none. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}
