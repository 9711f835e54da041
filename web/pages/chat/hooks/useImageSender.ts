import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import type { ChatHistoryEntry, Envelope } from "../../../../common/api";
import type { PhotoType } from "../../../../common/constants";
import { isHandledApiError } from "../../../api/errors";
import { requestPicture, sendPhoto } from "../../../api/images";
import { audioPlayer } from "../../../lib/audioPlayer";
import { warn } from "../../../lib/notify";
import { imageTexts } from "../imageTexts";
import { localEntry } from "../liveChat";
import type { LiveChat } from "./useChatSender";

export interface ImageSender {
  busy: boolean;
  /** Sends the user's photo with their words (POST /chat/photo-process). */
  sendPhoto: (photo: Blob, text: string) => void;
  /** Asks the character for a picture (POST /chat/request-photo): type 1 portrait, 2 landscape. */
  requestPicture: (message: string, type: PhotoType) => void;
  /** Whether `key` is one of these items (its Retry comes here). */
  owns: (key: string) => boolean;
  /** Sends a failed photo or picture request again. */
  retry: (key: string) => void;
}

type Sent =
  | { kind: "photo"; photo: Blob; text: string }
  | { kind: "picture"; message: string; type: PhotoType };

let counter = 0;

/**
 * What a photo or picture-request answer leads to (product.md §3 envelope): `stored` on
 * success; `follow` when a refusal names a `page` (429 at the monthly or daily limit names
 * /pricing), with the message to show (`fallback` when the server sent none); else `failed`.
 */
export type ImageAnswerOutcome =
  | { kind: "stored"; entry: ChatHistoryEntry | undefined }
  | { kind: "follow"; page: string; message: string }
  | { kind: "failed"; message: string };

/** Reads an answer of POST /chat/photo-process or /chat/request-photo as an `ImageAnswerOutcome`. */
export function imageAnswerOutcome(
  answer: Envelope & { history?: ChatHistoryEntry[] },
  fallback: string,
): ImageAnswerOutcome {
  if (answer.success === 1) return { kind: "stored", entry: answer.history?.[0] };
  const message = answer.message || fallback;
  if (answer.page) return { kind: "follow", page: answer.page, message };
  return { kind: "failed", message };
}

/**
 * Photos from the user and pictures on request (product.md §4 "Photo flow", "Image generation", product.md §8).
 * A photo shows at once with an upload spinner; once stored, the history (refetched) takes over.
 * A refused photo shows the server message as a warning toast, a network error 'Failed to send
 * photo.'; either way the bubble reads 'Photo upload failed. Please check and try again.' with the
 * 'Failed' mark. A picture request's entry then loads its image while the history polls.
 * A refusal that names a `page` (429 at the limit names /pricing) is followed instead, as a text
 * message's is: the message as a warning toast, the item leaves without 'Failed', and
 * the page opens with the message as navigation state `notice`.
 * The items live in the chat's one live store (`live`) until the history holds them.
 */
export function useImageSender(
  userId: string,
  target: { chatId: string; characterId: string; mute: boolean } | null,
  live: LiveChat,
): ImageSender {
  const client = useQueryClient();
  const { dispatch } = live;
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const urls = useRef<string[]>([]);
  const sent = useRef(new Map<string, Sent>());
  useEffect(
    () => () => {
      for (const url of urls.current) URL.revokeObjectURL(url);
    },
    [],
  );

  /** The stored entry replaces the local one once the refetched history has it. */
  const settle = useCallback(
    async (key: string, stored: ChatHistoryEntry | undefined) => {
      if (stored) dispatch({ type: "stored", key, entry: stored });
      await client.invalidateQueries({ queryKey: ["chat-history", userId, target?.chatId] });
      client.removeQueries({ queryKey: ["chat-photos", userId, target?.chatId] });
      if (stored) dispatch({ type: "settled", key });
    },
    [client, dispatch, target?.chatId, userId],
  );

  /** Follows the page a refusal names: toast, no 'Failed', then the page with `notice`. */
  const follow = useCallback(
    (key: string, page: string, message: string) => {
      warn(message);
      sent.current.delete(key);
      dispatch({ type: "refused", key });
      void navigate(page, { state: { notice: message } });
    },
    [dispatch, navigate],
  );

  const upload = useCallback(
    (key: string, photo: Blob, text: string) => {
      if (target === null) return;
      setBusy(true);
      const failed = (message: string) => {
        warn(message);
        dispatch({ type: "pictureFailed", key, message: imageTexts.photoUploadFailed });
      };
      sendPhoto({ chatId: target.chatId, characterId: target.characterId, photo, message: text })
        .then(async (answer) => {
          const outcome = imageAnswerOutcome(answer, imageTexts.failedToSendPhoto);
          if (outcome.kind === "follow") return follow(key, outcome.page, outcome.message);
          if (outcome.kind === "failed") return failed(outcome.message);
          sent.current.delete(key);
          await settle(key, outcome.entry);
        })
        .catch((error: unknown) => {
          console.error("chat/photo-process", error);
          if (isHandledApiError(error)) return;
          failed(imageTexts.failedToSendPhoto);
        })
        .finally(() => setBusy(false));
    },
    [dispatch, follow, settle, target],
  );

  const ask = useCallback(
    (key: string, message: string, type: PhotoType) => {
      if (target === null) return;
      setBusy(true);
      requestPicture({
        message,
        chatId: target.chatId,
        characterId: target.characterId,
        type,
        mute: target.mute,
      })
        .then(async (answer) => {
          const outcome = imageAnswerOutcome(answer, imageTexts.failedToRequest);
          if (outcome.kind === "follow") return follow(key, outcome.page, outcome.message);
          if (outcome.kind === "failed") {
            warn(outcome.message);
            dispatch({ type: "pictureFailed", key });
            return;
          }
          sent.current.delete(key);
          // the picture reply's words are heard like any reply's (not on Apple, product.md §4).
          if (!target.mute && answer.audioUrl)
            audioPlayer.autoplay(answer.audioUrl, false, outcome.entry?.chatHistoryUUID);
          await settle(key, outcome.entry);
        })
        .catch((error: unknown) => {
          console.error("chat/request-photo", error);
          dispatch({ type: "pictureFailed", key });
        })
        .finally(() => setBusy(false));
    },
    [dispatch, follow, settle, target],
  );

  const send = useCallback(
    (photo: Blob, text: string) => {
      if (target === null || busy) return;
      counter += 1;
      const key = `photo-${counter}`;
      const preview = URL.createObjectURL(photo);
      urls.current.push(preview);
      sent.current.set(key, { kind: "photo", photo, text: text.trim() });
      dispatch({
        type: "queued",
        key,
        entry: localEntry(target.characterId, text.trim(), new Date(), preview),
        source: "picture",
      });
      upload(key, photo, text.trim());
    },
    [busy, dispatch, target, upload],
  );

  const request = useCallback(
    (message: string, type: PhotoType) => {
      if (target === null || busy) return;
      counter += 1;
      const key = `picture-${counter}`;
      sent.current.set(key, { kind: "picture", message, type });
      dispatch({
        type: "queued",
        key,
        entry: localEntry(target.characterId, message, new Date()),
        source: "picture",
      });
      ask(key, message, type);
    },
    [ask, busy, dispatch, target],
  );

  const owns = useCallback((key: string) => sent.current.has(key), []);

  const retry = useCallback(
    (key: string) => {
      const what = sent.current.get(key);
      if (what === undefined || busy) return;
      if (what.kind === "photo") {
        dispatch({ type: "pending", key, message: what.text });
        upload(key, what.photo, what.text);
      } else {
        dispatch({ type: "pending", key });
        ask(key, what.message, what.type);
      }
    },
    [ask, busy, dispatch, upload],
  );

  return { busy, sendPhoto: send, requestPicture: request, owns, retry };
}
