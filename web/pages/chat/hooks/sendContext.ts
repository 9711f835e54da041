// What the send paths of the chat share: the target of a send, their context, a wait.
import type { Dispatch } from "react";
import type { ChatHistoryEntry, Envelope } from "../../../../common/api";
import type { LiveChatAction } from "../liveChat";

/** Where a send goes and how its reply is played (see `ChatTarget` of `useChatSender`). */
export interface ReplyTarget {
  chatId: string;
  isGroup: boolean;
  characterId: string;
  mute: boolean;
  notify: boolean;
  senderName?: string;
  senderAbout?: string;
}

/** What the reply paths share with the sender that runs them. */
export interface ReplyPathsContext {
  dispatch: Dispatch<LiveChatAction>;
  /** False once the screen unmounted: reveals stop there. */
  isMounted: () => boolean;
  /** The signal that closes this screen's reply streams when it unmounts. */
  closingSignal: () => AbortSignal | undefined;
  /** Marks item `key` 'Failed', with `message` as a warning toast (none when null). */
  fail: (key: string, message: string | null, stored?: ChatHistoryEntry) => void;
  /**
   * Acts on a refusal's error code (the quota opens the plan page, a missing model refreshes
   * the chat banner); true when the send is settled so (nothing more to do).
   */
  refused: (key: string, reply: Envelope, stored?: ChatHistoryEntry) => boolean;
}

/** Resolves after `ms`. */
export const wait = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));
