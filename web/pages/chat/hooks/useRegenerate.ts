// Regenerate on the chat screen: a new reply for an entry, streamed into its bubble.
import { useQueryClient } from "@tanstack/react-query";
import { type RefObject, useCallback, useEffect, useRef } from "react";
import type { ChatHistoryEntry } from "../../../../common/api";
import { failureOf } from "../../../api/client";
import { regenerateReplyStream } from "../../../api/edits";
import { failureAction } from "../../../api/failureAction";
import { ReplyLostError } from "../../../api/replies";
import { audioPlayer } from "../../../lib/audioPlayer";
import { editTexts } from "../editTexts";
import { type HistoryPages, replaceInHistory } from "../historyEdits";
import type { LiveChat } from "./useChatSender";
import { useFailureResponse } from "./useFailureResponse";

export interface RegenerateOptions {
  live: LiveChat;
  /** Ask for no spoken audio with the new reply. */
  mute: boolean;
  /** The chat can answer now (capability `chat`). */
  canReply: boolean;
  /** An edit action is in flight: nothing starts. */
  busyRef: RefObject<boolean>;
  /** The edits' runner: controls off meanwhile, a thrown failure shown with `fallback`. */
  act: (name: string, fallback: string, work: () => Promise<void>) => Promise<void>;
  /** The query key of the chat's cached history pages. */
  keyRef: RefObject<readonly unknown[]>;
}

/**
 * Regenerate (POST /chat/regenerate, "Swipes"), streamed like Continue: the bubble empties and
 * fills with the new reply's tokens (`regenerateStarted`, `token`, `continueEnded`), no send
 * meanwhile; its spoken sentences autoplay unless muted. The stored reply goes into the cached
 * history; a refusal is answered from its error code (`failureAction`: at the message limit the
 * plan page opens with the message); a stream lost after the reply was stored is settled by the
 * history (`lost`). The stream closes when the screen unmounts.
 */
export function useRegenerate(options: RegenerateOptions): (entry: ChatHistoryEntry) => void {
  const { live, mute, canReply, busyRef, act, keyRef } = options;
  const { dispatch } = live;
  const client = useQueryClient();
  const respond = useFailureResponse();
  const closing = useRef<AbortController | null>(null);

  useEffect(() => {
    const current = new AbortController();
    closing.current = current;
    return () => current.abort();
  }, []);

  return useCallback(
    (entry: ChatHistoryEntry) => {
      if (busyRef.current || !canReply) return;
      const key =
        live.state.items.find((item) => item.entry.chatHistoryUUID === entry.chatHistoryUUID)?.key ??
        entry.chatHistoryUUID;
      void act("regenerate", editTexts.regenerateFailed, async () => {
        dispatch({ type: "started" });
        dispatch({ type: "regenerateStarted", key, entry });
        try {
          const reply = await regenerateReplyStream(
            entry.chatHistoryUUID,
            mute,
            {
              onToken: (text) => dispatch({ type: "token", key, text }),
              onAudio: (audio) => {
                if (!mute) audioPlayer.autoplay(audio.audioUrl, audio.index > 0, audio.chatHistoryUUID);
              },
            },
            closing.current?.signal,
          );
          const stored = reply.success === 1 ? reply.history?.[0] : undefined;
          dispatch({ type: "continueEnded", key, ok: stored !== undefined, stored: stored ?? entry });
          if (stored !== undefined) {
            client.setQueryData<HistoryPages>(keyRef.current, (data) => replaceInHistory(data, stored));
          } else {
            respond(failureAction(failureOf(reply), editTexts.regenerateFailed));
          }
        } catch (error) {
          // the new reply is stored and its stream lost: the history settles it.
          if (error instanceof ReplyLostError) {
            dispatch({ type: "lost", key });
            await client.invalidateQueries({ queryKey: keyRef.current });
            return;
          }
          dispatch({ type: "continueEnded", key, ok: false, stored: entry });
          throw error;
        } finally {
          dispatch({ type: "finished" });
        }
      });
    },
    [act, busyRef, canReply, client, dispatch, keyRef, live.state.items, mute, respond],
  );
}
