// Photos from the user and pictures on request (product.md §4 "Photo flow", "Image generation", §8): sending, failures, quota.
import { useCallback, useEffect, useRef, useState } from "react";
import type { PhotoType } from "../../../../common/constants";
import { localEntry } from "../liveChat";
import type { LiveChat } from "./useChatSender";
import { type ImageTarget, type Sent, useImageRequests } from "./useImageRequests";

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

let counter = 0;

/**
 * Photos from the user and pictures on request (product.md §4 "Photo flow", "Image generation", product.md §8).
 * A photo shows at once with an upload spinner; once stored, the history (refetched) takes over.
 * A refused photo shows the server message as a warning toast, a network error 'Failed to send
 * photo.'; either way the bubble reads 'Photo upload failed. Please check and try again.' with the
 * 'Failed' mark. A picture request's entry then loads its image while the history polls.
 * A refusal is decided from its error code (`imageAnswerOutcome`): at the message quota (429
 * names /pricing) it is followed instead, as a text message's is: the message as a warning toast,
 * the item leaves without 'Failed', and the page opens with the message as navigation state `notice`.
 * The items live in the chat's one live store (`live`) until the history holds them.
 */
export function useImageSender(userId: string, target: ImageTarget | null, live: LiveChat): ImageSender {
  const { dispatch } = live;
  const [busy, setBusy] = useState(false);
  const urls = useRef<string[]>([]);
  const sent = useRef(new Map<string, Sent>());
  useEffect(
    () => () => {
      for (const url of urls.current) URL.revokeObjectURL(url);
    },
    [],
  );

  const { upload, ask } = useImageRequests(userId, target, dispatch, sent, setBusy);

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
