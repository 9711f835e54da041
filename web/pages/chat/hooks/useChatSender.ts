// Sending chat messages (product.md §4 "Sending", "Split replies", "Group chat"): requests, streaming, sounds and toasts.
import { type Dispatch, startTransition, useCallback, useEffect, useReducer, useRef, useState } from "react";
import type { ChatHistoryEntry } from "../../../../common/api";
import { stopReply } from "../../../api/chat";
import { nextTask } from "../../../lib/nextTask";
import {
  initialLiveChat,
  type LiveChatAction,
  type LiveChatState,
  liveChatReducer,
  liveChatView,
  localEntry,
  planContinue,
  planRetry,
  planSend,
} from "../liveChat";
import { dispatchLive, StreamingText } from "../streamingText";
import type { ChatStatus } from "../texts";
import { useReplyPaths } from "./useReplyPaths";
import { useSendRefusals } from "./useSendRefusals";

export type { ChatStatus };

/** The live items of one chat screen: one store shared by the text and the picture senders. */
export interface LiveChat {
  /** The items and the send's state, without the text streamed since its last change (`streaming`). */
  state: LiveChatState;
  dispatch: Dispatch<LiveChatAction>;
  /** The text streamed into the replies since `state` last changed (see StreamingText). */
  streaming: StreamingText;
}

/**
 * One live-chat store (see `liveChatReducer`); mount under a `key` of the chat id. Its dispatch
 * routes each action as `dispatchLive` says: tokens to `streaming`, the rest (text folded in first)
 * to the reducer, as a transition except the starts of a stream.
 */
export function useLiveChat(): LiveChat {
  const [state, reduce] = useReducer(liveChatReducer, initialLiveChat);
  const [streaming] = useState(() => new StreamingText());
  const dispatch = useCallback(
    (action: LiveChatAction) => dispatchLive(action, streaming, reduce, startTransition),
    [streaming],
  );
  return { state, dispatch, streaming };
}

export interface ChatSender {
  status: ChatStatus;
  /** product.md §4: the user can send only when ready (no send in flight). */
  canSend: boolean;
  /** A reply is on its way (the typing indicator shows). */
  isReplying: boolean;
  /** The character whose reply is awaited, for the typing indicator. */
  replyingCharacterId: string;
  /** Sends `text` trimmed ('.. N.' repeats it, product.md §5); false when nothing was sent. */
  send: (text: string) => boolean;
  /** Sends a failed message again with the same clientMessageId. */
  retry: (key: string) => void;
  /** A reply is streaming and can be stopped. */
  canStop: boolean;
  /** POST /chat/stop for the streaming reply; the part so far stays. */
  stop: () => void;
  /** Continues the reply of `entry` (POST /chat/continue-message), appended to its bubble. */
  continueReply: (entry: ChatHistoryEntry) => void;
}

export interface ChatTarget {
  /** The chat id: the group id in a group chat, else the character id. */
  chatId: string;
  /** The character that replies (outside a group). */
  characterId: string;
  isGroup: boolean;
  /** Ask for no spoken audio (setting 'mute voice' or no voice replies on this server). */
  mute: boolean;
  /** product.md §4: a notice sound 1 s after a reply arrives. */
  notify: boolean;
  /** Settings 'About you': sent as `pname` and `ptext` when not empty. */
  senderName?: string;
  senderAbout?: string;
}

let localCounter = 0;

/** A fresh id for one send (letters, digits and '-', as the server accepts). */
function newClientMessageId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  localCounter += 1;
  return `m-${Date.now().toString(36)}-${localCounter}-${Math.random().toString(36).slice(2, 10)}`;
}

/** The state a plan sees: busy while a send is in flight here or a followed reply streams. */
const planState = (state: LiveChatState, sending: boolean): LiveChatState => ({
  ...state,
  busy: sending || state.busy,
});

/**
 * Sending chat messages (product.md §4 "Sending", "Split replies", "Group chat", product.md §8): the effects
 * of the state machine in `liveChatReducer` (requests, waits, sounds, toasts).
 * One-to-one: POST /chat/message with stream=1 and a fresh clientMessageId; status
 * 'sending...' until the `entry` event, 'replying...' while tokens arrive (shown live in the
 * reply bubble), then 'online'; a split reply is revealed part by part 1000 ms apart.
 * Group: POST /chat/group/reply with stream=1; each member's reply streams into its bubble in
 * turn order (a non-streamed answer is shown entry by entry 1000 ms apart).
 * A refused send (success 0, e.g. 429 at the daily limit) shows the server message as a warning
 * toast and status 'away'; a transport error only sets 'away'. Either marks the message
 * 'Failed' with a Retry that reuses its clientMessageId. A refusal that names a `page` (product.md §3
 * envelope; 429 at the limit names /pricing) is followed instead: the message shows
 * as a toast and on that page (navigation state `notice`), and the message is not 'Failed'.
 */
export function useChatSender(target: ChatTarget | null, live: LiveChat): ChatSender {
  const { state, dispatch } = live;
  /** Set at once (the reducer's `busy` only after the next render): no second send meanwhile. */
  const busyRef = useRef(false);
  /** The state as last rendered, so that the callbacks below keep one identity. */
  const stateRef = useRef(state);
  stateRef.current = state;
  const mounted = useRef(true);
  const targetRef = useRef(target);
  targetRef.current = target;
  /** Closes this screen's reply streams when it unmounts (the server keeps writing the reply). */
  const closing = useRef<AbortController | null>(null);

  useEffect(() => {
    mounted.current = true;
    const current = new AbortController();
    closing.current = current;
    return () => {
      mounted.current = false;
      current.abort();
    };
  }, []);

  const isMounted = useCallback(() => mounted.current, []);
  const closingSignal = useCallback(() => closing.current?.signal, []);

  const { fail, refused, isLeaving } = useSendRefusals(dispatch);
  const { sendOne, continueStream } = useReplyPaths({ dispatch, isMounted, closingSignal, fail, refused });

  const run = useCallback(
    async (work: () => Promise<void>) => {
      busyRef.current = true;
      try {
        // The tap's own task ends here with the composer cleared (busyRef already refuses a second
        // send): the send's state, its bubble and the request come in the next task, so neither
        // task is long on a phone (docs/benchmarks.md "Formatted reply streaming").
        await nextTask();
        if (mounted.current) dispatch({ type: "started" });
        await work();
      } finally {
        busyRef.current = false;
        if (mounted.current) dispatch({ type: "finished" });
      }
    },
    [dispatch],
  );

  const send = useCallback(
    (text: string): boolean => {
      const current = targetRef.current;
      const plan = planSend(planState(stateRef.current, busyRef.current), text, current !== null);
      if (plan === null || current === null) return false;
      void run(async () => {
        for (let round = 0; round < plan.count; round += 1) {
          if (!mounted.current || isLeaving()) return;
          localCounter += 1;
          const key = `local-${localCounter}`;
          const clientMessageId = newClientMessageId();
          const entry = localEntry(current.characterId, plan.message, new Date());
          dispatch({ type: "queued", key, entry, clientMessageId, source: "message" });
          await sendOne(current, key, plan.message, clientMessageId);
        }
      });
      return true;
    },
    [dispatch, isLeaving, run, sendOne],
  );

  const retry = useCallback(
    (key: string) => {
      const plan = planRetry(planState(stateRef.current, busyRef.current), key);
      if (plan === null) return;
      dispatch({ type: "pending", key });
      const current = targetRef.current;
      if (current !== null) void run(() => sendOne(current, key, plan.message, plan.clientMessageId));
    },
    [dispatch, run, sendOne],
  );

  const streamingId = state.streamingId;
  const stop = useCallback(() => {
    if (streamingId === "") return;
    stopReply(streamingId).catch((error: unknown) => console.error("chat/stop", error));
  }, [streamingId]);

  const continueReply = useCallback(
    (entry: ChatHistoryEntry) => {
      const key = planContinue(planState(stateRef.current, busyRef.current), entry);
      if (key === null) return;
      dispatch({ type: "continueStarted", key, entry });
      void run(() => continueStream(key, entry));
    },
    [continueStream, dispatch, run],
  );

  const view = liveChatView(state, target !== null);
  return {
    status: state.status,
    canSend: view.canSend,
    isReplying: view.isReplying,
    replyingCharacterId: state.replyingCharacterId,
    send,
    retry,
    canStop: view.canStop,
    stop,
    continueReply,
  };
}
