import { type Dispatch, useCallback, useEffect, useReducer, useRef } from "react";
import { useNavigate } from "react-router";
import type { ChatHistoryEntry } from "../../../../common/api";
import { SPLIT_MESSAGE_DELAY_MS } from "../../../../common/constants";
import { continueReplyStream, sendMessageStream, stopReply } from "../../../api/chat";
import { isHandledApiError } from "../../../api/errors";
import { type GroupReply, sendGroupMessageStream } from "../../../api/groups";
import { ReplyLostError } from "../../../api/replies";
import { audioPlayer } from "../../../lib/audioPlayer";
import { warn } from "../../../lib/notify";
import { playReplySound } from "../../../lib/replySound";
import {
  initialLiveChat,
  type LiveChatAction,
  type LiveChatState,
  liveChatReducer,
  liveChatView,
  localEntry,
  memberKey,
  planContinue,
  planRetry,
  planSend,
  splitAudioUrls,
  splitParts,
} from "../liveChat";
import { type ChatStatus, chatTexts } from "../texts";

export type { ChatStatus };

/** The live items of one chat screen: one store shared by the text and the picture senders. */
export interface LiveChat {
  state: LiveChatState;
  dispatch: Dispatch<LiveChatAction>;
}

/** One live-chat store (see `liveChatReducer`); mount under a `key` of the chat id. */
export function useLiveChat(): LiveChat {
  const [state, dispatch] = useReducer(liveChatReducer, initialLiveChat);
  return { state, dispatch };
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

const wait = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));

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
  const navigate = useNavigate();
  /** A refusal's page is being opened: repeats ('.. N.') stop there. */
  const leaving = useRef(false);

  useEffect(() => {
    mounted.current = true;
    const current = new AbortController();
    closing.current = current;
    return () => {
      mounted.current = false;
      current.abort();
    };
  }, []);

  /**
   * Shows split parts one after another, 1000 ms apart (product.md §4, 9). `audioUrls[i]` (when given)
   * is part i's own audio: it is queued as the part shows, so each part's audio plays in turn
   * (all of reply `owner`, its chatHistoryUUID, so its button shows Stop meanwhile).
   */
  const reveal = useCallback(
    async (key: string, parts: string[], audioUrls: string[] = [], owner = "") => {
      dispatch({ type: "reveal", step: 1 });
      for (let index = 0; index < parts.length; index += 1) {
        if (index > 0) await wait(SPLIT_MESSAGE_DELAY_MS);
        if (!mounted.current) return;
        dispatch({ type: "partsRevealed", key, parts: parts.slice(0, index + 1) });
        const url = audioUrls[index];
        if (url) audioPlayer.autoplay(url, index > 0, owner);
      }
      dispatch({ type: "reveal", step: -1 });
    },
    [dispatch],
  );

  const fail = useCallback(
    (key: string, message: string | null, stored?: ChatHistoryEntry) => {
      if (message !== null) warn(message || chatTexts.failedToSend);
      dispatch({ type: "failed", key, stored });
    },
    [dispatch],
  );

  /**
   * Follows the page a refusal names: the message as a warning toast, the item not
   * 'Failed', then `page` opens with the message as navigation state `notice`.
   */
  const follow = useCallback(
    (key: string, message: string, page: string, stored?: ChatHistoryEntry) => {
      const text = message || chatTexts.failedToSend;
      warn(text);
      dispatch({ type: "refused", key, stored });
      leaving.current = true;
      void navigate(page, { state: { notice: text } });
    },
    [dispatch, navigate],
  );

  /**
   * The entries of a group answer that did not stream, shown in turn 1000 ms apart (product.md §4 "Group
   * chat"), each member's audio queued after the one before.
   */
  const revealGroup = useCallback(
    async (current: ChatTarget, key: string, answer: GroupReply, entries: ChatHistoryEntry[]) => {
      dispatch({ type: "reveal", step: 1 });
      const who = answer.whoReplies ?? [];
      for (const [index, entry] of entries.entries()) {
        if (index > 0) {
          dispatch({ type: "replyingTo", characterId: who[index] ?? entry.characterUUID });
          await wait(SPLIT_MESSAGE_DELAY_MS);
          if (!mounted.current) return;
        }
        dispatch(
          index === 0 ? { type: "stored", key, entry } : { type: "added", key: memberKey(key, index), entry },
        );
        // each member's answer is heard in turn (product.md §4).
        if (!current.mute && entry.chatHistoryReplyAudioUrl) {
          audioPlayer.autoplay(entry.chatHistoryReplyAudioUrl, index > 0, entry.chatHistoryUUID);
        }
      }
      dispatch({ type: "reveal", step: -1 });
      dispatch({ type: "status", status: "online" });
    },
    [dispatch],
  );

  /**
   * One group send (product.md §4 "Group chat"): POST /chat/group/reply with stream=1. Each
   * member's reply streams into its own bubble in turn order: its `entry` event names the member
   * speaking (typing indicator, Stop), its tokens fill the bubble, its sentences' audio is queued
   * after the member before. An answer that did not stream (a repeated send) is revealed entry by
   * entry 1000 ms apart.
   */
  const sendGroup = useCallback(
    async (current: ChatTarget, key: string, message: string, clientMessageId: string) => {
      dispatch({ type: "status", status: "replying..." });
      let members = 0;
      /** The entries whose sentences were heard while streaming. */
      const spoken = new Set<string>();
      const answer = await sendGroupMessageStream(
        { message, groupId: current.chatId, clientMessageId, mute: current.mute },
        {
          onEntry: (entry) => {
            dispatch({ type: "memberStarted", key, index: members, entry });
            members += 1;
          },
          onToken: (text) => dispatch({ type: "token", key: memberKey(key, Math.max(members - 1, 0)), text }),
          onAudio: (audio) => {
            if (current.mute) return;
            // The first sentence heard interrupts what played; every later one waits its turn.
            audioPlayer.autoplay(audio.audioUrl, spoken.size > 0 || audio.index > 0, audio.chatHistoryUUID);
            spoken.add(audio.chatHistoryUUID ?? "");
          },
        },
        closing.current?.signal,
      );
      const entries = answer.history ?? [];
      if (answer.success !== 1 && answer.page) {
        follow(key, answer.message, answer.page, entries[0]);
        return;
      }
      if (members === 0) {
        if (answer.success !== 1 || entries.length === 0) {
          fail(key, answer.message || chatTexts.failedToReply, entries[0]);
          return;
        }
        await revealGroup(current, key, answer, entries);
      } else {
        const ok = answer.success === 1;
        dispatch({ type: "groupReplied", key, entries, ok });
        if (!ok) warn(answer.message || chatTexts.failedToReply);
        // A member whose sentences were not heard while streaming: its whole audio, in turn.
        for (const entry of entries) {
          if (current.mute || spoken.has(entry.chatHistoryUUID) || !entry.chatHistoryReplyAudioUrl) continue;
          audioPlayer.autoplay(entry.chatHistoryReplyAudioUrl, spoken.size > 0, entry.chatHistoryUUID);
          spoken.add(entry.chatHistoryUUID);
        }
        if (!ok) return;
      }
      if (current.notify) playReplySound();
    },
    [dispatch, fail, follow, revealGroup],
  );

  /** One streamed one-to-one send (product.md §4 "Sending", audio as each sentence is ready). */
  const sendStream = useCallback(
    async (current: ChatTarget, key: string, message: string, clientMessageId: string) => {
      const sentAt = new Date();
      dispatch({ type: "status", status: "sending..." });
      let spokenSentences = 0;
      let streamed = false;
      const reply = await sendMessageStream(
        {
          message,
          chatId: current.chatId,
          characterId: current.characterId,
          mute: current.mute ? "1" : "0",
          time: sentAt,
          pname: current.senderName,
          ptext: current.senderAbout,
          clientMessageId,
        },
        {
          onEntry: (entry) => dispatch({ type: "entryStored", key, entry }),
          onToken: (text) => {
            streamed = true;
            dispatch({ type: "token", key, text });
          },
          // each sentence plays as soon as its audio is ready (not on Apple, product.md §4).
          onAudio: (audio) => {
            if (current.mute) return;
            spokenSentences += 1;
            audioPlayer.autoplay(audio.audioUrl, audio.index > 0, audio.chatHistoryUUID);
          },
        },
        closing.current?.signal,
      );
      const stored = reply.history?.[0];
      if (reply.success !== 1 && reply.page) {
        follow(key, reply.message, reply.page, stored);
        return;
      }
      if (reply.success !== 1) {
        fail(key, reply.message, stored);
        return;
      }
      const entry: ChatHistoryEntry = stored ?? {
        ...localEntry(current.characterId, message, sentAt),
        chatHistoryReplyMessage: reply.text ?? "",
        chatHistoryReplyTime: new Date().toISOString(),
      };
      const parts = splitParts(reply);
      dispatch({ type: "replied", key, entry, parts, streamed });
      if (current.notify) playReplySound();
      // product.md §4 "Split replies": each part's audio in turn. Sentences heard while streaming are
      // already queued in order; otherwise each part's own audio plays as it shows, after the one
      // before (the whole reply's audio when the server gave none per part).
      const unheard = !current.mute && spokenSentences === 0;
      const partAudio = unheard ? splitAudioUrls(reply, parts) : [];
      const owner = entry.chatHistoryUUID;
      if (unheard && partAudio.length === 0 && reply.audioUrl)
        audioPlayer.autoplay(reply.audioUrl, false, owner);
      if (parts && !streamed) await reveal(key, parts, partAudio, owner);
      else {
        for (const [index, url] of partAudio.entries()) if (url) audioPlayer.autoplay(url, index > 0, owner);
      }
    },
    [dispatch, fail, follow, reveal],
  );

  /** One send of `message` as item `key`; resolves when its reply has arrived or failed. */
  const sendOne = useCallback(
    async (key: string, message: string, clientMessageId: string): Promise<void> => {
      const current = targetRef.current;
      if (current === null) return;
      try {
        if (current.isGroup) await sendGroup(current, key, message, clientMessageId);
        else await sendStream(current, key, message, clientMessageId);
      } catch (error) {
        console.error("chat/message", error);
        // the message is stored, its reply's stream could not be followed: the history takes over.
        if (error instanceof ReplyLostError) {
          dispatch({ type: "lost", key });
          return;
        }
        // 401 and 503 were answered by the client (product.md §8): the item stays as it is.
        if (isHandledApiError(error)) {
          dispatch({ type: "streamEnded" });
          return;
        }
        fail(key, current.isGroup ? chatTexts.failedToReply : null);
      }
    },
    [dispatch, fail, sendGroup, sendStream],
  );

  const run = useCallback(
    async (work: () => Promise<void>) => {
      busyRef.current = true;
      dispatch({ type: "started" });
      try {
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
          if (!mounted.current || leaving.current) return;
          localCounter += 1;
          const key = `local-${localCounter}`;
          const clientMessageId = newClientMessageId();
          const entry = localEntry(current.characterId, plan.message, new Date());
          dispatch({ type: "queued", key, entry, clientMessageId, source: "message" });
          await sendOne(key, plan.message, clientMessageId);
        }
      });
      return true;
    },
    [dispatch, run, sendOne],
  );

  const retry = useCallback(
    (key: string) => {
      const plan = planRetry(planState(stateRef.current, busyRef.current), key);
      if (plan === null) return;
      dispatch({ type: "pending", key });
      void run(() => sendOne(key, plan.message, plan.clientMessageId));
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
      void run(async () => {
        try {
          const reply = await continueReplyStream(
            entry.chatHistoryUUID,
            (text) => dispatch({ type: "token", key, text }),
            closing.current?.signal,
          );
          const ok = reply.success === 1;
          if (!ok) warn(reply.message || chatTexts.failedToReply);
          dispatch({ type: "continueEnded", key, ok, stored: reply.history?.[0] });
        } catch (error) {
          console.error("chat/continue-message", error);
          dispatch(
            error instanceof ReplyLostError
              ? { type: "lost", key }
              : { type: "continueEnded", key, ok: false },
          );
        }
      });
    },
    [dispatch, run],
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
