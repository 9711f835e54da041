// The reply paths of a chat send: the streamed one-to-one reply and the group turn, with their reveals.
import { type Dispatch, useCallback } from "react";
import type { ChatHistoryEntry } from "../../../../common/api";
import { SPLIT_MESSAGE_DELAY_MS } from "../../../../common/constants";
import { continueReplyStream, sendMessageStream } from "../../../api/chat";
import { isHandledApiError } from "../../../api/errors";
import { ReplyLostError } from "../../../api/replies";
import { audioPlayer } from "../../../lib/audioPlayer";
import { warn } from "../../../lib/notify";
import { playReplySound } from "../../../lib/replySound";
import { type LiveChatAction, localEntry, splitAudioUrls, splitParts } from "../liveChat";
import { chatTexts } from "../texts";
import { type ReplyPathsContext, type ReplyTarget, wait } from "./sendContext";
import { useGroupSend } from "./useGroupSend";

/** The send paths of `useChatSender`. */
export interface ReplyPaths {
  /**
   * One send of `message` as item `key` (the group turn or the streamed one-to-one reply);
   * resolves when its reply has arrived or failed.
   */
  sendOne: (current: ReplyTarget, key: string, message: string, clientMessageId: string) => Promise<void>;
  /** Continues the reply of `entry` as item `key`; resolves when it ended. */
  continueStream: (key: string, entry: ChatHistoryEntry) => Promise<void>;
}

/**
 * The streamed one-to-one and group reply paths (product.md §4 "Sending", "Split replies",
 * "Group chat"): requests, reveals 1000 ms apart, audio in turn and the reply sound.
 */
export function useReplyPaths(context: ReplyPathsContext): ReplyPaths {
  const { dispatch, isMounted, closingSignal, fail, refused } = context;

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
        if (!isMounted()) return;
        dispatch({ type: "partsRevealed", key, parts: parts.slice(0, index + 1) });
        const url = audioUrls[index];
        if (url) audioPlayer.autoplay(url, index > 0, owner);
      }
      dispatch({ type: "reveal", step: -1 });
    },
    [dispatch, isMounted],
  );

  const sendGroup = useGroupSend(context);

  /** One streamed one-to-one send (product.md §4 "Sending", audio as each sentence is ready). */
  const sendStream = useCallback(
    async (current: ReplyTarget, key: string, message: string, clientMessageId: string) => {
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
        closingSignal(),
      );
      const stored = reply.history?.[0];
      if (reply.success !== 1 && refused(key, reply, stored)) return;
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
    [closingSignal, dispatch, fail, refused, reveal],
  );

  /** One send of `message` as item `key`; resolves when its reply has arrived or failed. */
  const sendOne = useCallback(
    async (current: ReplyTarget, key: string, message: string, clientMessageId: string): Promise<void> => {
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

  const continueStream = useCallback(
    (key: string, entry: ChatHistoryEntry) => continueInto(dispatch, key, entry, closingSignal()),
    [closingSignal, dispatch],
  );

  return { sendOne, continueStream };
}

/** Continues the reply of `entry` into item `key` (POST /chat/continue-message), appended to its bubble. */
async function continueInto(
  dispatch: Dispatch<LiveChatAction>,
  key: string,
  entry: ChatHistoryEntry,
  signal: AbortSignal | undefined,
): Promise<void> {
  try {
    const reply = await continueReplyStream(
      entry.chatHistoryUUID,
      (text) => dispatch({ type: "token", key, text }),
      signal,
    );
    const ok = reply.success === 1;
    if (!ok) warn(reply.message || chatTexts.failedToReply);
    dispatch({ type: "continueEnded", key, ok, stored: reply.history?.[0] });
  } catch (error) {
    console.error("chat/continue-message", error);
    dispatch(
      error instanceof ReplyLostError ? { type: "lost", key } : { type: "continueEnded", key, ok: false },
    );
  }
}
