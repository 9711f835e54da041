// Stable props for the message rows, so that a streamed token re-renders only the streaming bubble: callbacks of one identity and the editing tools kept while their state holds.
import { useCallback, useMemo, useRef } from "react";
import type { ChatHistoryEntry } from "../../../../common/api";
import type { MessageEditing } from "../hooks/useMessageEditing";

/**
 * `callback` behind one identity for the life of the component: the returned function always
 * calls the newest `callback` given (so a memoized row never holds a stale one).
 */
export function useStableCallback<Args extends unknown[], Result>(
  callback: (...args: Args) => Result,
): (...args: Args) => Result {
  const latest = useRef(callback);
  latest.current = callback;
  return useCallback((...args: Args) => latest.current(...args), []);
}

/**
 * The editing tools of the rows with one identity while their state (isGroup, busy, canReply,
 * the entry being edited) stays the same; each action calls the newest `editing`'s. Undefined
 * when `editing` is (no tools offered).
 */
export function useStableEditing(editing: MessageEditing | undefined): MessageEditing | undefined {
  const latest = useRef(editing);
  latest.current = editing;
  const present = editing !== undefined;
  const isGroup = editing?.isGroup ?? false;
  const busy = editing?.busy ?? false;
  const canReply = editing?.canReply ?? false;
  const current = editing?.editing ?? null;
  return useMemo((): MessageEditing | undefined => {
    if (!present) return undefined;
    const tools = () => latest.current as MessageEditing;
    return {
      isGroup,
      busy,
      canReply,
      editing: current,
      startEdit: (id, part) => tools().startEdit(id, part),
      cancelEdit: () => tools().cancelEdit(),
      saveEdit: (entry: ChatHistoryEntry, part, text) => tools().saveEdit(entry, part, text),
      swipe: (entry, index) => tools().swipe(entry, index),
      regenerate: (entry) => tools().regenerate(entry),
      remove: (entry) => tools().remove(entry),
      rewind: (entry) => tools().rewind(entry),
    };
  }, [present, isGroup, busy, canReply, current]);
}

/**
 * Whether two rows' props render the same bubble: the row's fields (a row is rebuilt on every
 * change of the list, its entry kept when unchanged) and every other prop by identity.
 */
export function sameRowProps<Props extends { row: object }>(before: Props, after: Props): boolean {
  for (const name of Object.keys(after) as (keyof Props)[]) {
    if (name === "row") continue;
    if (!Object.is(before[name], after[name])) return false;
  }
  if (Object.keys(before).length !== Object.keys(after).length) return false;
  const rowBefore = before.row as Record<string, unknown>;
  const rowAfter = after.row as Record<string, unknown>;
  const names = Object.keys(rowAfter);
  if (names.length !== Object.keys(rowBefore).length) return false;
  return names.every((name) => Object.is(rowBefore[name], rowAfter[name]));
}
