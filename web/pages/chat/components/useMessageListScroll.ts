// The message list's scrolling (product.md §9): following the newest bubble, paging up, the scroll-to-bottom button and bounded rendering.
import { type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { SCROLL_BUTTON_THRESHOLD_PX } from "../../../../common/constants";
import type { StreamingText } from "../streamingText";
import { useFirstPageStages } from "./firstPageStages";

/** Within this many pixels of the bottom the list follows new messages. */
const STICK_TO_BOTTOM_PX = 80;
/** Within this many pixels of the top the previous page is requested. */
const LOAD_EARLIER_PX = 40;
/**
 * Bounded rendering: back at the bottom, only the newest this many bubbles stay in
 * the page; older ones stay loaded and come back REVEAL_ROWS at a time when scrolling up,
 * before any earlier page is fetched.
 */
const MAX_RENDERED_AT_BOTTOM = 60;
const REVEAL_ROWS = 20;
/** While older messages are read, at most this many bubbles are rendered; newer ones wait below. */
const MAX_RENDERED = 200;
/** Within this many pixels of the rendered end, bubbles waiting below are shown again. */
const SHOW_LATER_PX = 200;
/** product.md §9: scroll to the bottom 100 ms after a change, 300 ms after the box gains focus. */
const SCROLL_DELAY_MS = 100;
const SCROLL_ON_FOCUS_DELAY_MS = 300;

/** What the scrolling needs of the list: its bubbles and its paging. */
interface ScrollInput {
  /** The bubbles loaded, oldest first (their keys, texts, and entries and sides when known). */
  rows: readonly { key: string; text: string; kind?: string; entry?: { chatHistoryUUID: string } }[];
  isLoading: boolean;
  hasEarlier: boolean;
  isLoadingEarlier: boolean;
  onLoadEarlier: () => void;
  /** The typing indicator shows (the list follows it like a new bubble). */
  showTyping: boolean;
  /** The rows are the newest items (not a deferred render's older ones): only then is a page too short. */
  settled?: boolean;
  /** Changes whenever the message box gains focus. */
  focusSignal: number;
  /** A message to show and highlight (search's jump), once its entry is loaded. */
  jumpTo?: { entryId: string; side: "user" | "reply" };
  /** The streamed text: each token is followed, at most once a frame. */
  streamingText?: StreamingText;
}

/** The list's scrolling: the bubbles to render (`hidden` ≤ index < `end`) and the handlers. */
export interface MessageListScroll {
  container: RefObject<HTMLDivElement | null>;
  /** Bubbles before this index are loaded but not rendered. */
  hidden: number;
  /** Bubbles from this index on are loaded but not rendered. */
  end: number;
  /** How many bubbles wait below the rendered ones. */
  below: number;
  /** The scroll-to-bottom button shows. */
  showJump: boolean;
  /** The key of the bubble jumped to (highlighted), or "". */
  found: string;
  onScroll: () => void;
  scrollToBottom: () => void;
}

/** Scrolls `list` to its bottom if it follows the bottom (the user has not scrolled up); reads its height, a layout. */
function keepAtBottom(list: HTMLElement | null, followBottom: RefObject<boolean>): void {
  if (list !== null && followBottom.current) list.scrollTop = list.scrollHeight;
}

/**
 * The scrolling rules of the message list (product.md §9): a growing history scrolls to the bottom
 * unless the user scrolled up; reaching the top loads the previous page and keeps the view where
 * it was; a scroll-to-bottom button appears beyond 800 px from the bottom. Rendering stays bounded
 * however much history is loaded: at most MAX_RENDERED bubbles while reading up and down (the rest
 * stays loaded, shown again REVEAL_ROWS at a time without moving what is in view), and
 * MAX_RENDERED_AT_BOTTOM once back at the bottom.
 */
export function useMessageListScroll(input: ScrollInput): MessageListScroll {
  const container = useRef<HTMLDivElement>(null);
  const followBottom = useRef(true);
  // The list's scrollTop at the last scroll event (see onScroll).
  const lastTop = useRef(0);
  const [showJump, setShowJump] = useState(false);
  const view = useRenderWindow(container, followBottom, input);
  const { rows } = input;
  useFollowBottom(container, followBottom, {
    bubbleCount: rows.length,
    lastLength: rows[rows.length - 1]?.text.length ?? 0,
    showTyping: input.showTyping,
    focusSignal: input.focusSignal,
  });
  useFollowTokens(container, followBottom, input.streamingText);
  const found = useJumpTo(container, followBottom, input.jumpTo, rows, view.showAround);

  const onScroll = () => {
    const element = container.current;
    if (element === null) return;
    const fromBottom = view.showLaterIfNear(element);
    // Only a view moved up stops the following: a scroll event that did not move it (Chromium
    // sends one when a new bubble has made the list taller, before the next frame follows it)
    // leaves the following as it was.
    const movedUp = element.scrollTop < lastTop.current;
    lastTop.current = element.scrollTop;
    const following = fromBottom < STICK_TO_BOTTOM_PX || (!movedUp && followBottom.current);
    followBottom.current = following && view.below === 0;
    setShowJump(fromBottom > SCROLL_BUTTON_THRESHOLD_PX || view.below > 0);
    view.trimIfAtBottom(fromBottom);
    if (element.scrollTop < LOAD_EARLIER_PX) view.requestEarlier();
  };

  const scrollToBottom = () => {
    const element = container.current;
    if (element === null) return;
    followBottom.current = true;
    // Far from the newest messages: jump there, rendering only the newest ones.
    if (view.below > 0) view.jumpToNewest();
    else element.scrollTo({ top: element.scrollHeight, behavior: "smooth" });
  };

  return {
    container,
    hidden: view.hidden,
    end: view.end,
    below: view.below,
    showJump,
    found,
    onScroll,
    scrollToBottom,
  };
}

/**
 * Search's jump: once the bubble of `jumpTo` (its side, else any of its entry) is loaded, the list
 * stops following the bottom, renders the bubbles around it and scrolls it to the middle of the
 * view (its wrapper carries `data-found`). @returns the bubble's key, or "" before.
 */
function useJumpTo(
  container: RefObject<HTMLDivElement | null>,
  followBottom: RefObject<boolean>,
  jumpTo: ScrollInput["jumpTo"],
  rows: ScrollInput["rows"],
  showAround: (index: number) => void,
): string {
  const [found, setFound] = useState("");
  const scrolled = useRef("");
  let index = -1;
  if (jumpTo !== undefined) {
    const ofEntry = (row: ScrollInput["rows"][number]) => row.entry?.chatHistoryUUID === jumpTo.entryId;
    index = rows.findIndex((row) => ofEntry(row) && row.kind === jumpTo.side);
    if (index < 0) index = rows.findIndex(ofEntry);
  }
  const key = index >= 0 ? rows[index]!.key : "";

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a newly loaded target moves the view
  useLayoutEffect(() => {
    if (key === "" || key === found) return;
    followBottom.current = false;
    showAround(index);
    setFound(key);
  }, [key]);

  useLayoutEffect(() => {
    if (found === "" || scrolled.current === found) return;
    const bubble = container.current?.querySelector("[data-found]")?.firstElementChild;
    if (!bubble) return;
    scrolled.current = found;
    followBottom.current = false;
    bubble.scrollIntoView({ block: "center" });
  });
  return found;
}

/**
 * Keeps the list at the bottom while `followBottom` holds: 100 ms after a new bubble, new
 * streaming text or the typing indicator, and 300 ms after the message box gains focus (product.md §9).
 */
function useFollowBottom(
  container: RefObject<HTMLDivElement | null>,
  followBottom: RefObject<boolean>,
  triggers: { bubbleCount: number; lastLength: number; showTyping: boolean; focusSignal: number },
) {
  const stickToBottom = useCallback(
    (delay: number, atNextFrame = false) => {
      const apply = () => keepAtBottom(container.current, followBottom);
      const frame = atNextFrame ? requestAnimationFrame(apply) : 0;
      if (!atNextFrame) apply();
      const timer = window.setTimeout(apply, delay);
      return () => {
        window.clearTimeout(timer);
        if (frame !== 0) cancelAnimationFrame(frame);
      };
    },
    [container, followBottom],
  );
  // Follow new messages and streaming text unless the user scrolled up (an empty list has nothing
  // to follow). At the next frame, before it paints, where the browser lays the new bubbles out
  // anyway: reading the list's height in the commit would lay it out inside the task that commits
  // them (on a chat of 200 messages, a phone's send took 50-60 ms so, half of it that layout).
  // biome-ignore lint/correctness/useExhaustiveDependencies: bubbleCount, lastLength and showTyping are the triggers
  useLayoutEffect(() => {
    if (triggers.bubbleCount === 0 && !triggers.showTyping) return;
    return stickToBottom(SCROLL_DELAY_MS, true);
  }, [triggers.bubbleCount, triggers.lastLength, triggers.showTyping, stickToBottom]);

  useEffect(() => {
    if (triggers.focusSignal === 0) return;
    const timer = window.setTimeout(() => stickToBottom(0), SCROLL_ON_FOCUS_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [triggers.focusSignal, stickToBottom]);
}

/**
 * Keeps the list at the bottom while text streams in, with no forced layout per token: a token
 * asks for one follow at the next frame (`requestAnimationFrame`), which reads the height once
 * for every token of that frame, when the browser lays the page out anyway.
 */
function useFollowTokens(
  container: RefObject<HTMLDivElement | null>,
  followBottom: RefObject<boolean>,
  streamingText: StreamingText | undefined,
) {
  useEffect(() => {
    if (streamingText === undefined) return;
    let frame = 0;
    const follow = () => {
      frame = 0;
      keepAtBottom(container.current, followBottom);
    };
    const unsubscribe = streamingText.subscribeAny(() => {
      if (frame === 0) frame = requestAnimationFrame(follow);
    });
    return () => {
      unsubscribe();
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [container, followBottom, streamingText]);
}

/**
 * The window of bubbles rendered (bounded rendering, see `useMessageListScroll`) and the paging up:
 * bubbles hidden above come back before an earlier page is fetched, and the view stays still
 * while bubbles are added or dropped above it.
 */
function useRenderWindow(
  container: RefObject<HTMLDivElement | null>,
  followBottom: RefObject<boolean>,
  { rows, isLoading, hasEarlier, isLoadingEarlier, onLoadEarlier, settled = true }: ScrollInput,
) {
  const restore = useRef<{ height: number; top: number } | null>(null);
  // Rows before `hidden` are loaded but not rendered (see MAX_RENDERED_AT_BOTTOM).
  const [hiddenAbove, setHiddenAbove] = useState(0);
  const trimmed = useRef(false);
  // Whether the list has shown its first page (see the layout effect below).
  const opened = useRef(false);
  const staging = useFirstPageStages(rows.length - hiddenAbove);
  const hidden = Math.min(Math.max(hiddenAbove, rows.length - staging.newest), rows.length);
  // Rows from `end` on are loaded but not rendered either (while reading far up).
  const [hiddenBelow, setHiddenBelow] = useState(0);
  const below = Math.min(hiddenBelow, rows.length - hidden);
  const end = rows.length - below;
  const firstKey = rows[hidden]?.key;

  const requestEarlier = useCallback(() => {
    const element = container.current;
    if (element === null || (hidden === 0 && (!hasEarlier || isLoadingEarlier))) return;
    restore.current = { height: element.scrollHeight, top: element.scrollTop };
    if (hidden === 0) onLoadEarlier();
    else if (staging.active) staging.finish();
    else setHiddenAbove(Math.max(0, hidden - REVEAL_ROWS));
  }, [container, hidden, hasEarlier, isLoadingEarlier, onLoadEarlier, staging.active, staging.finish]);

  // Keep the view still when older entries are prepended (or shown again); at the bottom, stay there.
  // biome-ignore lint/correctness/useExhaustiveDependencies: firstKey changes when a page is prepended
  useLayoutEffect(() => {
    const element = container.current;
    // Nothing to do before the first page, nor for it: useFollowBottom follows it at the next frame
    // (reading the height here would lay the new bubbles out inside this commit's task).
    if (element === null || rows.length === 0) return;
    if (!opened.current) {
      opened.current = true;
      return;
    }
    const saved = restore.current;
    restore.current = null;
    if (saved !== null && !followBottom.current) {
      element.scrollTop = element.scrollHeight - saved.height + saved.top;
      // Far below the view now: stop rendering what exceeds MAX_RENDERED (it stays loaded).
      if (end - hidden > MAX_RENDERED) setHiddenBelow(rows.length - hidden - MAX_RENDERED);
      return;
    }
    // At the bottom (bubbles shown above a list that follows it, or just trimmed to it): down at
    // the next frame, before it paints (see useFollowBottom); after a trim, also past the browser's
    // scroll anchoring, which may have moved the view.
    const trim = trimmed.current;
    trimmed.current = false;
    if (!followBottom.current && !trim) return;
    requestAnimationFrame(() => {
      if (trim) followBottom.current = true;
      keepAtBottom(element, followBottom);
    });
  }, [firstKey]);

  const keepInView = useKeepInView(container);

  const ready = !isLoading && settled && !staging.active;
  useFillShortPage(container, { bubbleCount: rows.length, ready, requestEarlier });

  /**
   * Shows REVEAL_ROWS of the bubbles waiting below when the rendered end is within
   * SHOW_LATER_PX of the view, dropping as many above (MAX_RENDERED) without moving what is in
   * view. @returns the view's distance from the bottom, pixels.
   */
  const showLaterIfNear = (element: HTMLDivElement): number => {
    const fromBottom = element.scrollHeight - element.scrollTop - element.clientHeight;
    if (below > 0 && fromBottom < SHOW_LATER_PX) {
      const nextBelow = Math.max(0, below - REVEAL_ROWS);
      const nextHidden = Math.max(hidden, rows.length - nextBelow - MAX_RENDERED);
      if (nextHidden > hidden) {
        keepInView(element);
        setHiddenAbove(nextHidden);
      }
      setHiddenBelow(nextBelow);
    }
    return fromBottom;
  };

  // A scroll that arrived while the previous reveal was still being rendered saw the old rows:
  // check again once they are in the page, so reading down never stalls at the rendered end.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-check after each change of the window
  useEffect(() => {
    const element = container.current;
    if (element !== null && below > 0 && !followBottom.current) showLaterIfNear(element);
  }, [below, hidden]);

  /** Trims to the newest bubbles, only once the list rests at the very bottom (not during a smooth scroll to it). */
  const trimIfAtBottom = (fromBottom: number) => {
    if (fromBottom < 2 && below === 0 && rows.length - hidden > MAX_RENDERED_AT_BOTTOM) {
      trimmed.current = true;
      setHiddenAbove(rows.length - MAX_RENDERED_AT_BOTTOM);
    }
  };

  /** Renders the bubbles around `index` (a jump to it), at most MAX_RENDERED. */
  const showAround = (index: number) => {
    staging.finish();
    setHiddenAbove(Math.max(0, index - REVEAL_ROWS));
    setHiddenBelow(Math.max(0, rows.length - index - (MAX_RENDERED - REVEAL_ROWS)));
  };

  /**
   * Renders only the newest bubbles, the list at the bottom: in stages, as the first page (60
   * bubbles rendered anew in one task took 42-76 ms at a desktop's speed).
   */
  const jumpToNewest = () => {
    trimmed.current = true;
    staging.restart();
    setHiddenBelow(0);
    setHiddenAbove(Math.max(0, rows.length - MAX_RENDERED_AT_BOTTOM));
  };

  return { hidden, below, end, requestEarlier, showLaterIfNear, trimIfAtBottom, jumpToNewest, showAround };
}

/** A first page too short to scroll could never reach "the top": fetches more right away. */
function useFillShortPage(
  container: RefObject<HTMLDivElement | null>,
  { bubbleCount, ready, requestEarlier }: { bubbleCount: number; ready: boolean; requestEarlier: () => void },
) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-check whenever the content changes
  useEffect(() => {
    const element = container.current;
    if (element === null || !ready) return;
    if (element.scrollHeight <= element.clientHeight + LOAD_EARLIER_PX) requestEarlier();
  }, [bubbleCount, ready, requestEarlier]);
}

/**
 * Keeps the first bubble in view where it is on screen across the next render (bubbles dropped
 * above the view while scrolling down). @returns `keep(list)`, to call before that render.
 */
function useKeepInView(container: RefObject<HTMLDivElement | null>) {
  const kept = useRef<{ element: Element; top: number } | null>(null);

  useLayoutEffect(() => {
    const element = container.current;
    const saved = kept.current;
    if (element === null || saved === null) return;
    kept.current = null;
    element.scrollTop += saved.element.getBoundingClientRect().top - saved.top;
  });

  return (list: HTMLDivElement) => {
    const listTop = list.getBoundingClientRect().top;
    const inView = [...list.querySelectorAll("article")].find(
      (article) => article.getBoundingClientRect().bottom > listTop,
    );
    if (inView) kept.current = { element: inView, top: inView.getBoundingClientRect().top };
  };
}
