// The text streaming into reply bubbles, kept outside React's state: a token reaches only the bubble it belongs to.
import { useCallback, useSyncExternalStore } from "react";
import type { LiveChatAction } from "./liveChat";

/**
 * The tokens of the replies streaming on one chat screen, by live item key, appended since the
 * live-chat state last took them in. A token is appended here instead of going through the
 * live-chat reducer, so that no component but the streaming bubble (and the list's follow of the
 * bottom, once a frame) runs on a token; the conversation renders again only when the send's state
 * changes (the reply is stored, ends, fails). `useLiveChat` folds the text into the state (a
 * `token` action with all of it) before any other action, so the state is whole whenever it
 * changes for another reason.
 */
export class StreamingText {
  private readonly tails = new Map<string, string>();
  private readonly byKey = new Map<string, Set<() => void>>();
  private readonly anyKey = new Set<() => void>();

  /** Appends `text` to the tail of item `key`; its bubble and the `subscribeAny` listeners hear of it. */
  append(key: string, text: string): void {
    if (text === "") return;
    this.tails.set(key, (this.tails.get(key) ?? "") + text);
    for (const listener of this.byKey.get(key) ?? []) listener();
    for (const listener of this.anyKey) listener();
  }

  /** The text appended to item `key` that the live-chat state does not hold yet ("" for none). */
  tail(key: string): string {
    return this.tails.get(key) ?? "";
  }

  /** Whether any item has text the state does not hold yet. */
  hasAny(): boolean {
    return this.tails.size > 0;
  }

  /**
   * Takes every tail out, for the live-chat state to hold (`useLiveChat`). No listener is told:
   * the state's render that holds the text shows it, in the same update.
   * @returns the tails taken, as [item key, text].
   */
  take(): Array<[string, string]> {
    const taken = [...this.tails];
    this.tails.clear();
    return taken;
  }

  /** Calls `listener` after each token of item `key`. @returns the unsubscribe. */
  subscribe(key: string, listener: () => void): () => void {
    let listeners = this.byKey.get(key);
    if (listeners === undefined) {
      listeners = new Set();
      this.byKey.set(key, listeners);
    }
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.byKey.get(key) === listeners) this.byKey.delete(key);
    };
  }

  /** Calls `listener` after each token of any item. @returns the unsubscribe. */
  subscribeAny(listener: () => void): () => void {
    this.anyKey.add(listener);
    return () => this.anyKey.delete(listener);
  }
}

/** No subscription (a bubble that is not streaming). */
const NONE = () => () => {};

/**
 * The streamed text of item `key` that the state does not hold yet, rendering the caller again on
 * each of its tokens; "" and no subscription when `key` is null (the bubble is not streaming).
 */
export function useStreamingTail(store: StreamingText | undefined, key: string | null): string {
  const subscribe = useCallback(
    (listener: () => void) => (store && key !== null ? store.subscribe(key, listener) : NONE()),
    [store, key],
  );
  const snapshot = () => (store && key !== null ? store.tail(key) : "");
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/**
 * Whether any reply streaming on the screen shows text yet, from the state (`fromState`) or the
 * store: re-renders the caller only when the answer changes, not on every token.
 */
export function useAnyStreamingText(store: StreamingText, fromState: boolean): boolean {
  const subscribe = useCallback((listener: () => void) => store.subscribeAny(listener), [store]);
  const snapshot = () => store.hasAny();
  return useSyncExternalStore(subscribe, snapshot, snapshot) || fromState;
}

/**
 * The actions that start a reply's stream: applied at once, so that the bubble the tokens go to is
 * in the page before the first of them (a token arriving during an interruptible render would
 * make React render it again, blocking).
 */
const STREAM_STARTS = new Set<LiveChatAction["type"]>([
  "entryStored",
  "followStarted",
  "continueStarted",
  "regenerateStarted",
  "memberStarted",
]);

/**
 * How `useLiveChat` routes one action: a `token` goes to `streaming` (only its bubble renders
 * again); any other action first folds the streamed text into the state (one `token` action per
 * item, in order), then goes to `reduce`. Except the starts of a stream, these go through `later`
 * (`startTransition`: React renders the conversation in slices the browser can paint between, so
 * sending a message and the end of a reply make no long task however long the chat).
 */
export function dispatchLive(
  action: LiveChatAction,
  streaming: StreamingText,
  reduce: (action: LiveChatAction) => void,
  later: (apply: () => void) => void,
): void {
  if (action.type === "token") {
    streaming.append(action.key, action.text);
    return;
  }
  const apply = () => {
    for (const [key, text] of streaming.take()) reduce({ type: "token", key, text });
    reduce(action);
  };
  if (STREAM_STARTS.has(action.type)) apply();
  else later(apply);
}
