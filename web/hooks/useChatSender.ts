import { useMutation } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { ChatHistoryEntry, MessageReply } from "../../common/api";
import { SPLIT_MESSAGE_DELAY_MS } from "../../common/constants";
import { type SendMessageInput, sendMessage } from "../api/chat";
import { warn } from "../lib/notify";

/** spec 3: the chat status shown in the header. */
export type ChatStatus = "online" | "replying..." | "away";

/** A message sent from this screen, shown before and after the server stored it. */
export interface LiveChatItem {
  /** Stable React key for the whole life of the item. */
  key: string;
  entry: ChatHistoryEntry;
  delivery: "pending" | "sent" | "failed";
  /** Parts of a split reply revealed so far; undefined when the reply is one message. */
  replyParts?: string[];
}

export interface ChatSender {
  items: LiveChatItem[];
  status: ChatStatus;
  /** spec 4: the user can send only when ready (no send in flight). */
  canSend: boolean;
  /** A reply is on its way (the typing indicator shows). */
  isReplying: boolean;
  /** Sends `text` trimmed; returns false (and sends nothing) when it is empty or not ready. */
  send: (text: string) => boolean;
}

export interface ChatTarget {
  /** The chat id: the group id in a group chat, else the character id. */
  chatId: string;
  /** The character that replies. */
  characterId: string;
}

let localCounter = 0;

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

/**
 * Sending chat messages (spec 4 "Sending", spec 8): the user's message is shown at once
 * (pending), the status turns 'replying...' and sending is disabled; POST /chat/message
 * (multipart: message, id, cId, mute '1', time). On success the stored entry replaces the
 * optimistic one, a split reply is revealed part by part 1000 ms apart, status 'online'.
 * On success 0: status 'away', the server message as a warning toast, the message kept
 * (marked 'Failed' unless the server stored it). On a transport error: status 'away', no toast.
 * Mount it under a `key` of the chat id so a new chat starts empty.
 */
export function useChatSender(target: ChatTarget | null): ChatSender {
  const [items, setItems] = useState<LiveChatItem[]>([]);
  const [status, setStatus] = useState<ChatStatus>("online");
  const [revealing, setRevealing] = useState(0);
  const timers = useRef<number[]>([]);
  const mutation = useMutation({ mutationFn: sendMessage, meta: { silent: true } });

  useEffect(
    () => () => {
      for (const timer of timers.current) window.clearTimeout(timer);
    },
    [],
  );

  const update = useCallback((key: string, change: (item: LiveChatItem) => LiveChatItem) => {
    setItems((previous) => previous.map((item) => (item.key === key ? change(item) : item)));
  }, []);

  const reveal = useCallback(
    (key: string, parts: string[]) => {
      setRevealing((count) => count + 1);
      parts.forEach((_part, index) => {
        const timer = window.setTimeout(() => {
          update(key, (item) => ({ ...item, replyParts: parts.slice(0, index + 1) }));
          if (index === parts.length - 1) setRevealing((count) => count - 1);
        }, index * SPLIT_MESSAGE_DELAY_MS);
        timers.current.push(timer);
      });
    },
    [update],
  );

  const { mutate, isPending } = mutation;
  const canSend = target !== null && !isPending;

  const send = useCallback(
    (text: string): boolean => {
      const message = text.trim();
      if (message === "" || target === null || isPending) return false;
      localCounter += 1;
      const key = `local-${localCounter}`;
      const sentAt = new Date();
      const optimistic = emptyEntry(target.characterId, message, sentAt);
      setItems((previous) => [...previous, { key, entry: optimistic, delivery: "pending" }]);
      setStatus("replying...");
      const input: SendMessageInput = {
        message,
        chatId: target.chatId,
        characterId: target.characterId,
        mute: "1",
        time: sentAt,
      };
      mutate(input, {
        onSuccess: (reply) => {
          const stored = reply.history?.[0];
          if (reply.success !== 1) {
            setStatus("away");
            warn(reply.message || "Failed to send the message.");
            update(key, (item) =>
              stored ? { ...item, entry: stored, delivery: "sent" } : { ...item, delivery: "failed" },
            );
            return;
          }
          const entry: ChatHistoryEntry = stored ?? {
            ...optimistic,
            chatHistoryReplyMessage: reply.text ?? "",
            chatHistoryReplyTime: new Date().toISOString(),
          };
          const parts = splitParts(reply);
          update(key, (item) => ({ ...item, entry, delivery: "sent", replyParts: parts ? [] : undefined }));
          if (parts) reveal(key, parts);
          setStatus("online");
        },
        onError: (error) => {
          console.error("chat/message", error);
          setStatus("away");
          update(key, (item) => ({ ...item, delivery: "failed" }));
        },
      });
      return true;
    },
    [target, isPending, mutate, update, reveal],
  );

  return { items, status, canSend, isReplying: isPending || revealing > 0, send };
}
