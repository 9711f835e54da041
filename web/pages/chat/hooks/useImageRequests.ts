// The requests behind the chat's photos and picture requests, and what each answer leads to.
import { useQueryClient } from "@tanstack/react-query";
import { type Dispatch, type RefObject, useCallback } from "react";
import { useNavigate } from "react-router";
import type { ChatHistoryEntry, Envelope } from "../../../../common/api";
import type { PhotoType } from "../../../../common/constants";
import { isHandledApiError } from "../../../api/errors";
import { CAPABILITIES_QUERY_KEY, failureAction } from "../../../api/failureAction";
import { requestPicture, sendPhoto } from "../../../api/images";
import { audioPlayer } from "../../../lib/audioPlayer";
import { warn } from "../../../lib/notify";
import { imageTexts } from "../imageTexts";
import type { LiveChatAction } from "../liveChat";

/** What was sent under a live item's key, so its Retry can send it again. */
export type Sent =
  | { kind: "photo"; photo: Blob; text: string }
  | { kind: "picture"; message: string; type: PhotoType };

/** Where the photos and picture requests of one chat go. */
export interface ImageTarget {
  chatId: string;
  characterId: string;
  mute: boolean;
}

/**
 * What a photo or picture-request answer leads to (product.md §3 envelope), decided from its
 * error code (`failureAction`): `stored` on success; `follow` at the message quota (429 names
 * /pricing), with the message to show (`fallback` when the server sent none); `quiet` when the
 * session ended (the API client already went to sign-in); else `failed`, with `modelMissing` when
 * no language model is ready (the chat banner is refreshed).
 */
export type ImageAnswerOutcome =
  | { kind: "stored"; entry: ChatHistoryEntry | undefined }
  | { kind: "follow"; page: string; message: string }
  | { kind: "quiet" }
  | { kind: "failed"; message: string; modelMissing?: true };

/** Reads an answer of POST /chat/photo-process or /chat/request-photo as an `ImageAnswerOutcome`. */
export function imageAnswerOutcome(
  answer: Envelope & { history?: ChatHistoryEntry[] },
  fallback: string,
): ImageAnswerOutcome {
  if (answer.success === 1) return { kind: "stored", entry: answer.history?.[0] };
  const action = failureAction(answer, fallback);
  if (action.kind === "plan") return { kind: "follow", page: action.page, message: action.message };
  if (action.kind === "signIn") return { kind: "quiet" };
  if (action.kind === "modelMissing") return { kind: "failed", message: action.message, modelMissing: true };
  return { kind: "failed", message: action.message };
}

export interface ImageRequests {
  /** POSTs the photo of item `key` with the user's words (/chat/photo-process). */
  upload: (key: string, photo: Blob, text: string) => void;
  /** POSTs the picture request of item `key` (/chat/request-photo). */
  ask: (key: string, message: string, type: PhotoType) => void;
}

/**
 * The requests of `useImageSender`, each answer settled on the live item `key` (`imageAnswerOutcome`):
 * stored: the refetched history takes over (`stored`, then `settled`); followed: the message as
 * a warning toast, the item leaves without 'Failed' (`refused`) and the page opens with the
 * message as navigation state `notice`; failed: the message as a warning toast and the item
 * 'Failed' (a photo's bubble reads 'Photo upload failed. Please check and try again.').
 * `sent` holds what each item sent until it is settled; `setBusy` is on while a request runs.
 */
export function useImageRequests(
  userId: string,
  target: ImageTarget | null,
  dispatch: Dispatch<LiveChatAction>,
  sent: RefObject<Map<string, Sent>>,
  setBusy: (busy: boolean) => void,
): ImageRequests {
  const client = useQueryClient();
  const navigate = useNavigate();

  /** The stored entry replaces the local one once the refetched history has it. */
  const settle = useCallback(
    async (key: string, stored: ChatHistoryEntry | undefined) => {
      sent.current.delete(key);
      if (stored) dispatch({ type: "stored", key, entry: stored });
      await client.invalidateQueries({ queryKey: ["chat-history", userId, target?.chatId] });
      client.removeQueries({ queryKey: ["chat-photos", userId, target?.chatId] });
      if (stored) dispatch({ type: "settled", key });
    },
    [client, dispatch, sent, target?.chatId, userId],
  );

  /**
   * Settles a refused answer: followed (`follow`), or failed (`failed` marks the item; the
   * message as a warning toast first unless `quiet`); a missing model also refreshes the chat banner.
   */
  const refused = useCallback(
    (key: string, outcome: Exclude<ImageAnswerOutcome, { kind: "stored" }>, failed: () => void) => {
      if (outcome.kind === "follow") {
        warn(outcome.message);
        sent.current.delete(key);
        dispatch({ type: "refused", key });
        void navigate(outcome.page, { state: { notice: outcome.message } });
        return;
      }
      if (outcome.kind === "failed") warn(outcome.message);
      failed();
      if (outcome.kind === "failed" && outcome.modelMissing) {
        void client.invalidateQueries({ queryKey: CAPABILITIES_QUERY_KEY });
      }
    },
    [client, dispatch, navigate, sent],
  );

  const upload = useCallback(
    (key: string, photo: Blob, text: string) => {
      if (target === null) return;
      setBusy(true);
      const failed = () => dispatch({ type: "pictureFailed", key, message: imageTexts.photoUploadFailed });
      sendPhoto({ chatId: target.chatId, characterId: target.characterId, photo, message: text })
        .then(async (answer) => {
          const outcome = imageAnswerOutcome(answer, imageTexts.failedToSendPhoto);
          if (outcome.kind === "stored") await settle(key, outcome.entry);
          else refused(key, outcome, failed);
        })
        .catch((error: unknown) => {
          console.error("chat/photo-process", error);
          if (isHandledApiError(error)) return;
          warn(imageTexts.failedToSendPhoto);
          failed();
        })
        .finally(() => setBusy(false));
    },
    [dispatch, refused, setBusy, settle, target],
  );

  const ask = useCallback(
    (key: string, message: string, type: PhotoType) => {
      if (target === null) return;
      setBusy(true);
      const { chatId, characterId, mute } = target;
      requestPicture({ message, chatId, characterId, type, mute })
        .then(async (answer) => {
          const outcome = imageAnswerOutcome(answer, imageTexts.failedToRequest);
          if (outcome.kind !== "stored") {
            refused(key, outcome, () => dispatch({ type: "pictureFailed", key }));
            return;
          }
          // the picture reply's words are heard like any reply's (not on Apple, product.md §4).
          if (!mute && answer.audioUrl)
            audioPlayer.autoplay(answer.audioUrl, false, outcome.entry?.chatHistoryUUID);
          await settle(key, outcome.entry);
        })
        .catch((error: unknown) => {
          console.error("chat/request-photo", error);
          dispatch({ type: "pictureFailed", key });
        })
        .finally(() => setBusy(false));
    },
    [dispatch, refused, setBusy, settle, target],
  );

  return { upload, ask };
}
