// Pictures and photos of one chat (product.md §6): the request menu's actions and the history refreshed while a picture is made.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef } from "react";
import type { ChatCapabilities } from "../../../api/capabilities";
import type { ComposerPictures } from "../components/Composer";
import type { LiveChat } from "./useChatSender";
import { useImageSender } from "./useImageSender";

export interface ChatPictures {
  /**
   * The plan allows pictures (`il` '1', product.md §6): the Photo List and the request menu show, with or
   * without an image engine on this server (the user's own photos need none).
   */
  enabled: boolean;
  /** The composer's request menu, or undefined when the plan has no pictures (product.md §2, 6). */
  composer: ComposerPictures | undefined;
  /** Whether a message's Retry belongs here (a failed photo or picture request). */
  owns: (key: string) => boolean;
  retry: (key: string) => void;
}

/**
 * Pictures and photos of one chat: the request menu's actions, and the history kept
 * fresh while a reply's picture is made. A text reply that carries a picture (genimage 1) makes
 * the history load again, and the history then polls until the picture is there.
 */
export function useChatPictures(
  userId: string,
  chatId: string,
  characterId: string,
  mute: boolean,
  capabilities: ChatCapabilities | undefined,
  live: LiveChat,
): ChatPictures {
  const client = useQueryClient();
  const target = useMemo(
    () => (characterId === "" ? null : { chatId, characterId, mute }),
    [chatId, characterId, mute],
  );
  const sender = useImageSender(userId, target, live);
  const requests = capabilities?.imageRequests.enabled ?? false;
  const photos = capabilities?.photoUpload.enabled ?? false;

  // A text reply whose picture is being made: the history loads again, then polls until it is there.
  const items = live.state.items;
  const asked = useRef(new Set<string>());
  useEffect(() => {
    const loading = items.filter(
      (item) =>
        item.source === "message" &&
        item.entry.chatHistoryImageLoading === 1 &&
        !asked.current.has(item.entry.chatHistoryUUID),
    );
    if (loading.length === 0) return;
    for (const item of loading) asked.current.add(item.entry.chatHistoryUUID);
    void client.invalidateQueries({ queryKey: ["chat-history", userId, chatId] });
  }, [client, items, userId, chatId]);

  const composer = useMemo<ComposerPictures | undefined>(
    () =>
      requests || photos
        ? {
            requests,
            requestsReason: requests ? "" : (capabilities?.imageRequests.reason ?? ""),
            photos,
            onRequest: sender.requestPicture,
            onSendPhoto: sender.sendPhoto,
          }
        : undefined,
    [requests, photos, capabilities, sender.requestPicture, sender.sendPhoto],
  );
  return { enabled: requests || photos, composer, owns: sender.owns, retry: sender.retry };
}
