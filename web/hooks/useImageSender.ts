import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import type { ChatHistoryEntry } from "../../common/api";
import type { PhotoType } from "../../common/constants";
import { ApiError } from "../api/errors";
import { requestPicture, sendPhoto } from "../api/images";
import { warn } from "../lib/notify";
import { imageTexts } from "../pages/chat/imageTexts";
import type { LiveChatItem } from "./useChatSender";

export interface ImageSender {
  /** Photos and picture requests sent on this screen, until the history holds them. */
  items: LiveChatItem[];
  busy: boolean;
  /** Sends the user's photo with their words (POST /chat/photo-process). */
  sendPhoto: (photo: Blob, text: string) => void;
  /** Asks the character for a picture (POST /chat/request-photo): type 1 portrait, 2 landscape. */
  requestPicture: (message: string, type: PhotoType) => void;
}

let counter = 0;

function localEntry(characterId: string, message: string, image: string): ChatHistoryEntry {
  return {
    chatHistoryUUID: "",
    characterUUID: characterId,
    chatHistoryMessage: message,
    chatHistoryMessageImage: image,
    chatHistorySendTime: new Date().toISOString(),
    chatHistoryReplyMessage: "",
    chatHistoryReplyImage: "",
    chatHistoryReplyAudioUrl: "",
    chatHistoryReplyTime: "",
    chatHistoryImageLoading: 0,
  };
}

/**
 * Photos from the user and pictures on request (spec 4 "Photo flow", "Image generation", spec 8).
 * A photo shows at once with an upload spinner; once stored, the history (refetched) takes over.
 * A refused photo shows the server message as a warning toast, a network error 'Failed to send
 * photo.'; either way the bubble reads 'Photo upload failed. Please check and try again.' with the
 * 'Failed' mark. A picture request's entry then loads its image while the history polls.
 */
export function useImageSender(
  userId: string,
  target: { chatId: string; characterId: string; mute: boolean } | null,
): ImageSender {
  const client = useQueryClient();
  const [items, setItems] = useState<LiveChatItem[]>([]);
  const [busy, setBusy] = useState(false);
  const urls = useRef<string[]>([]);
  useEffect(
    () => () => {
      for (const url of urls.current) URL.revokeObjectURL(url);
    },
    [],
  );

  const update = useCallback((key: string, change: (item: LiveChatItem) => LiveChatItem) => {
    setItems((previous) => previous.map((item) => (item.key === key ? change(item) : item)));
  }, []);

  /** The stored entry replaces the local one once the refetched history has it. */
  const settle = useCallback(
    async (key: string, stored: ChatHistoryEntry | undefined) => {
      if (stored) update(key, (item) => ({ ...item, entry: stored, delivery: "sent" }));
      await client.invalidateQueries({ queryKey: ["chat-history", userId, target?.chatId] });
      client.removeQueries({ queryKey: ["chat-photos", userId, target?.chatId] });
      if (stored) setItems((previous) => previous.filter((item) => item.key !== key));
    },
    [client, target?.chatId, update, userId],
  );

  const send = useCallback(
    (photo: Blob, text: string) => {
      if (target === null || busy) return;
      counter += 1;
      const key = `photo-${counter}`;
      const preview = URL.createObjectURL(photo);
      urls.current.push(preview);
      setItems((previous) => [
        ...previous,
        { key, entry: localEntry(target.characterId, text.trim(), preview), delivery: "pending" },
      ]);
      setBusy(true);
      const failed = (message: string) => {
        warn(message);
        update(key, (item) => ({
          ...item,
          delivery: "failed",
          entry: { ...item.entry, chatHistoryMessage: imageTexts.photoUploadFailed },
        }));
      };
      sendPhoto({ chatId: target.chatId, characterId: target.characterId, photo, message: text.trim() })
        .then(async (answer) => {
          if (answer.success !== 1) {
            // The photo may be stored with the character's failure: the history shows it as it is.
            failed(answer.message || imageTexts.failedToSendPhoto);
            return;
          }
          await settle(key, answer.history?.[0]);
        })
        .catch((error: unknown) => {
          console.error("chat/photo-process", error);
          if (error instanceof ApiError && (error.kind === "session" || error.kind === "maintenance")) return;
          failed(imageTexts.failedToSendPhoto);
        })
        .finally(() => setBusy(false));
    },
    [busy, settle, target, update],
  );

  const request = useCallback(
    (message: string, type: PhotoType) => {
      if (target === null || busy) return;
      counter += 1;
      const key = `picture-${counter}`;
      setItems((previous) => [
        ...previous,
        { key, entry: localEntry(target.characterId, message, ""), delivery: "pending" },
      ]);
      setBusy(true);
      requestPicture({
        message,
        chatId: target.chatId,
        characterId: target.characterId,
        type,
        mute: target.mute,
      })
        .then(async (answer) => {
          if (answer.success !== 1) {
            warn(answer.message || imageTexts.failedToRequest);
            update(key, (item) => ({ ...item, delivery: "failed" }));
            return;
          }
          await settle(key, answer.history?.[0]);
        })
        .catch((error: unknown) => {
          console.error("chat/request-photo", error);
          update(key, (item) => ({ ...item, delivery: "failed" }));
        })
        .finally(() => setBusy(false));
    },
    [busy, settle, target, update],
  );

  return { items, busy, sendPhoto: send, requestPicture: request };
}
