import { useCallback, useEffect, useRef, useState } from "react";
import type { ChatHistoryEntry, MessageReply } from "../../../../common/api";
import { SPLIT_MESSAGE_DELAY_MS } from "../../../../common/constants";
import { continueReplyStream, sendGroupMessage, sendMessageStream, stopReply } from "../../../api/chat";
import { isHandledApiError } from "../../../api/errors";
import { audioPlayer } from "../../../lib/audioPlayer";
import { warn } from "../../../lib/notify";
import { playReplySound } from "../../../lib/replySound";
import { parseRepeat } from "../repeat";
import { type ChatStatus, chatTexts } from "../texts";

export type { ChatStatus };

/** A message sent (or a reply continued) on this screen, shown before and after it is stored. */
export interface LiveChatItem {
  /** Stable React key for the whole life of the item. */
  key: string;
  entry: ChatHistoryEntry;
  delivery: "pending" | "sent" | "failed";
  /** Parts of a split reply revealed so far; undefined when the reply is one message. */
  replyParts?: string[];
  /** The client's id of the send, reused by Retry so the server stores it once. */
  clientMessageId?: string;
  /** The reply text is still arriving token by token. */
  streaming?: boolean;
}

export interface ChatSender {
  items: LiveChatItem[];
  status: ChatStatus;
  /** spec 4: the user can send only when ready (no send in flight). */
  canSend: boolean;
  /** A reply is on its way (the typing indicator shows). */
  isReplying: boolean;
  /** The character whose reply is awaited, for the typing indicator. */
  replyingCharacterId: string;
  /** Sends `text` trimmed ('.. N.' repeats it, spec 5); false when nothing was sent. */
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
  /** spec 4: a notice sound 1 s after a reply arrives. */
  notify: boolean;
}

let localCounter = 0;

/** A fresh id for one send (letters, digits and '-', as the server accepts). */
function newClientMessageId(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  localCounter += 1;
  return `m-${Date.now().toString(36)}-${localCounter}-${Math.random().toString(36).slice(2, 10)}`;
}

function emptyEntry(characterId: string, message: string, sentAt: Date): ChatHistoryEntry {
  return {
    chatHistoryUUID: "",
    characterUUID: characterId,
    chatHistoryMessage: message,
    chatHistoryMessageImage: "",
    chatHistorySendTime: sentAt.toISOString(),
    chatHistoryReplyMessage: "",
    chatHistoryReplyImage: "",
    chatHistoryReplyAudioUrl: "",
    chatHistoryReplyTime: "",
    chatHistoryImageLoading: 0,
  };
}

function splitParts(reply: MessageReply): string[] | undefined {
  const options = reply.options;
  if (options === undefined || options.splitCount <= 1) return undefined;
  const parts = options.splitMessages.filter((part) => part.trim() !== "");
  return parts.length > 1 ? parts : undefined;
}

const wait = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));

/**
 * Sending chat messages (spec 4 "Sending", "Split replies", "Group chat", spec 8).
 * One-to-one: POST /chat/message with stream=1 and a fresh clientMessageId; status
 * 'sending...' until the `entry` event, 'replying...' while tokens arrive (shown live in the
 * reply bubble), then 'online'; a split reply is revealed part by part 1000 ms apart.
 * Group: POST /chat/group/reply; each member's reply is shown 1000 ms after the previous one.
 * A refused send (success 0, e.g. 429 at the daily limit) shows the server message as a warning
 * toast and status 'away'; a transport error only sets 'away'. Either marks the message
 * 'Failed' with a Retry that reuses its clientMessageId. Mount under a `key` of the chat id.
 */
export function useChatSender(target: ChatTarget | null): ChatSender {
  const [items, setItems] = useState<LiveChatItem[]>([]);
  const [status, setStatus] = useState<ChatStatus>("online");
  const [busy, setBusy] = useState(false);
  const [revealing, setRevealing] = useState(0);
  const [replyingCharacterId, setReplyingCharacterId] = useState("");
  const [streamingId, setStreamingId] = useState("");
  const busyRef = useRef(false);
  /** Keys of the items whose reply text arrived as streamed tokens. */
  const streamedText = useRef(new Set<string>());
  const mounted = useRef(true);
  const targetRef = useRef(target);
  targetRef.current = target;

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const update = useCallback((key: string, change: (item: LiveChatItem) => LiveChatItem) => {
    setItems((previous) => previous.map((item) => (item.key === key ? change(item) : item)));
  }, []);

  const appendToken = useCallback(
    (key: string, text: string) => {
      update(key, (item) => ({
        ...item,
        streaming: true,
        entry: { ...item.entry, chatHistoryReplyMessage: item.entry.chatHistoryReplyMessage + text },
      }));
    },
    [update],
  );

  /** Shows split parts one after another, 1000 ms apart (spec 4, 9). */
  const reveal = useCallback(
    async (key: string, parts: string[]) => {
      setRevealing((count) => count + 1);
      for (let index = 0; index < parts.length; index += 1) {
        if (index > 0) await wait(SPLIT_MESSAGE_DELAY_MS);
        if (!mounted.current) return;
        update(key, (item) => ({ ...item, replyParts: parts.slice(0, index + 1) }));
      }
      setRevealing((count) => count - 1);
    },
    [update],
  );

  const fail = useCallback(
    (key: string, message: string | null, stored?: ChatHistoryEntry) => {
      setStatus("away");
      if (message !== null) warn(message || chatTexts.failedToSend);
      update(key, (item) =>
        stored
          ? { ...item, entry: stored, delivery: "sent", streaming: false }
          : { ...item, delivery: "failed", streaming: false },
      );
    },
    [update],
  );

  /** One send of `message` as item `key`; resolves when its reply has arrived or failed. */
  const sendOne = useCallback(
    async (key: string, message: string, clientMessageId: string): Promise<void> => {
      const current = targetRef.current;
      if (current === null) return;
      const sentAt = new Date();
      try {
        if (current.isGroup) {
          setStatus("replying...");
          const answer = await sendGroupMessage({
            message,
            groupId: current.chatId,
            clientMessageId,
            mute: current.mute,
          });
          const entries = answer.history ?? [];
          if (answer.success !== 1 || entries.length === 0) {
            fail(key, answer.message || chatTexts.failedToReply, entries[0]);
            return;
          }
          setRevealing((count) => count + 1);
          const who = answer.whoReplies ?? [];
          for (const [index, entry] of entries.entries()) {
            if (index > 0) {
              setReplyingCharacterId(who[index] ?? entry.characterUUID);
              await wait(SPLIT_MESSAGE_DELAY_MS);
              if (!mounted.current) return;
              setItems((previous) => [...previous, { key: `${key}:${index}`, entry, delivery: "sent" }]);
            } else {
              update(key, (item) => ({ ...item, entry, delivery: "sent" }));
            }
            // issue 7: each member's answer is heard in turn (spec 4).
            if (!current.mute && entry.chatHistoryReplyAudioUrl) {
              audioPlayer.autoplay(entry.chatHistoryReplyAudioUrl, index > 0);
            }
          }
          setRevealing((count) => count - 1);
          setStatus("online");
          if (current.notify) playReplySound();
          return;
        }
        setStatus("sending...");
        let spokenSentences = 0;
        const reply = await sendMessageStream(
          {
            message,
            chatId: current.chatId,
            characterId: current.characterId,
            mute: current.mute ? "1" : "0",
            time: sentAt,
            clientMessageId,
          },
          {
            onEntry: (entry) => {
              setStatus("replying...");
              setStreamingId(entry.chatHistoryUUID);
              update(key, (item) => ({
                ...item,
                delivery: "sent",
                streaming: true,
                entry: { ...entry, chatHistoryReplyMessage: "" },
              }));
            },
            onToken: (text) => {
              setStatus("replying...");
              streamedText.current.add(key);
              appendToken(key, text);
            },
            // issue 7: each sentence plays as soon as its audio is ready (not on Apple, spec 4).
            onAudio: (audio) => {
              if (current.mute) return;
              spokenSentences += 1;
              audioPlayer.autoplay(audio.audioUrl, audio.index > 0);
            },
          },
        );
        setStreamingId("");
        const stored = reply.history?.[0];
        if (reply.success !== 1) {
          fail(key, reply.message, stored);
          return;
        }
        const entry: ChatHistoryEntry = stored ?? {
          ...emptyEntry(current.characterId, message, sentAt),
          chatHistoryReplyMessage: reply.text ?? "",
          chatHistoryReplyTime: new Date().toISOString(),
        };
        const parts = splitParts(reply);
        // Text the user already watched stream in is not hidden again to be revealed part by part.
        const streamed = streamedText.current.has(key);
        streamedText.current.delete(key);
        update(key, (item) => ({
          ...item,
          entry,
          delivery: "sent",
          streaming: false,
          replyParts: parts ? (streamed ? parts : []) : undefined,
        }));
        setStatus("online");
        if (current.notify) playReplySound();
        if (!current.mute && spokenSentences === 0 && reply.audioUrl) audioPlayer.autoplay(reply.audioUrl);
        if (parts && !streamed) await reveal(key, parts);
      } catch (error) {
        setStreamingId("");
        console.error("chat/message", error);
        if (isHandledApiError(error)) return;
        fail(key, current.isGroup ? chatTexts.failedToReply : null);
      }
    },
    [appendToken, fail, reveal, update],
  );

  const run = useCallback(async (work: () => Promise<void>) => {
    busyRef.current = true;
    setBusy(true);
    try {
      await work();
    } finally {
      busyRef.current = false;
      if (mounted.current) {
        setBusy(false);
        setReplyingCharacterId("");
      }
    }
  }, []);

  const send = useCallback(
    (text: string): boolean => {
      const current = targetRef.current;
      const { text: message, count } = parseRepeat(text);
      if (message === "" || current === null || busyRef.current) return false;
      void run(async () => {
        for (let round = 0; round < count; round += 1) {
          if (!mounted.current) return;
          localCounter += 1;
          const key = `local-${localCounter}`;
          const clientMessageId = newClientMessageId();
          const entry = emptyEntry(current.characterId, message, new Date());
          setReplyingCharacterId(current.characterId);
          setItems((previous) => [...previous, { key, entry, delivery: "pending", clientMessageId }]);
          await sendOne(key, message, clientMessageId);
        }
      });
      return true;
    },
    [run, sendOne],
  );

  const retry = useCallback(
    (key: string) => {
      if (busyRef.current) return;
      const item = items.find((candidate) => candidate.key === key);
      if (item === undefined || item.delivery !== "failed" || !item.clientMessageId) return;
      const clientMessageId = item.clientMessageId;
      update(key, (old) => ({ ...old, delivery: "pending" }));
      void run(() => sendOne(key, item.entry.chatHistoryMessage, clientMessageId));
    },
    [items, run, sendOne, update],
  );

  const stop = useCallback(() => {
    if (streamingId === "") return;
    stopReply(streamingId).catch((error: unknown) => console.error("chat/stop", error));
  }, [streamingId]);

  const continueReply = useCallback(
    (entry: ChatHistoryEntry) => {
      if (busyRef.current || entry.chatHistoryUUID === "") return;
      const existing = items.find((item) => item.entry.chatHistoryUUID === entry.chatHistoryUUID);
      const key = existing?.key ?? entry.chatHistoryUUID;
      if (existing === undefined) {
        setItems((previous) => [...previous, { key, entry, delivery: "sent" }]);
      } else {
        update(key, (item) => ({ ...item, replyParts: undefined }));
      }
      void run(async () => {
        setReplyingCharacterId(entry.characterUUID);
        setStatus("replying...");
        setStreamingId(entry.chatHistoryUUID);
        try {
          const reply = await continueReplyStream(entry.chatHistoryUUID, (text) => appendToken(key, text));
          const stored = reply.history?.[0];
          if (reply.success !== 1) {
            setStatus("away");
            warn(reply.message || chatTexts.failedToReply);
          } else {
            setStatus("online");
          }
          update(key, (item) => ({ ...item, entry: stored ?? item.entry, streaming: false }));
        } catch (error) {
          console.error("chat/continue-message", error);
          setStatus("away");
          update(key, (item) => ({ ...item, streaming: false }));
        } finally {
          setStreamingId("");
        }
      });
    },
    [appendToken, items, run, update],
  );

  return {
    items,
    status,
    canSend: target !== null && !busy,
    isReplying: busy || revealing > 0,
    replyingCharacterId,
    send,
    retry,
    canStop: streamingId !== "",
    stop,
    continueReply,
  };
}
