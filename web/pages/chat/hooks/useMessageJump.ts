// Opening a chat at a message found by search: the history is loaded through it, then the list shows it.
import { useEffect, useRef } from "react";
import { HISTORY_PAGE_SIZE } from "../../../../common/constants";
import type { ChatHistory } from "./useChatHistory";

/** A message to open the chat at: its entry, whose words (user or reply), and how many entries are newer. */
export interface MessageJump {
  entryId: string;
  side: "user" | "reply";
  newer: number;
}

/** The message to jump to from /chat's navigation state (`{id, jump}`), when it names one. */
export function jumpFrom(state: unknown): MessageJump | undefined {
  if (typeof state !== "object" || state === null || !("jump" in state)) return undefined;
  const jump = state.jump as Partial<MessageJump> | null;
  if (typeof jump?.entryId !== "string" || jump.entryId === "") return undefined;
  return {
    entryId: jump.entryId,
    side: jump.side === "user" ? "user" : "reply",
    newer: typeof jump.newer === "number" && jump.newer >= 0 ? Math.floor(jump.newer) : 0,
  };
}

/**
 * Loads the chat's history through the message of `jump` (its `newer` entries and a page more,
 * for messages sent since the search) when the first page does not hold it.
 * @returns the jump once its entry is loaded (the list then scrolls to it), else undefined.
 */
export function useMessageJump(jump: MessageJump | undefined, history: ChatHistory): MessageJump | undefined {
  const present =
    jump !== undefined && history.entries.some((entry) => entry.chatHistoryUUID === jump.entryId);
  const asked = useRef(false);
  const { isLoading, loadThrough } = history;
  useEffect(() => {
    if (jump === undefined || present || isLoading || asked.current) return;
    asked.current = true;
    void loadThrough(jump.newer + 1 + HISTORY_PAGE_SIZE);
  }, [jump, present, isLoading, loadThrough]);
  return present ? jump : undefined;
}
