// The group turn of a chat send: each member's reply streamed in turn, or revealed 1000 ms apart.
import { useCallback } from "react";
import type { ChatHistoryEntry } from "../../../../common/api";
import { SPLIT_MESSAGE_DELAY_MS } from "../../../../common/constants";
import { type GroupReply, sendGroupMessageStream } from "../../../api/groups";
import { audioPlayer } from "../../../lib/audioPlayer";
import { warn } from "../../../lib/notify";
import { playReplySound } from "../../../lib/replySound";
import { memberKey } from "../liveChat";
import { chatTexts } from "../texts";
import { type ReplyPathsContext, type ReplyTarget, wait } from "./sendContext";

/**
 * One group send (product.md §4 "Group chat"), for `useReplyPaths`: resolves when the turn has
 * ended, been refused or failed.
 */
export function useGroupSend(
  context: ReplyPathsContext,
): (current: ReplyTarget, key: string, message: string, clientMessageId: string) => Promise<void> {
  const { dispatch, isMounted, closingSignal, fail, refused } = context;

  /**
   * The entries of a group answer that did not stream, shown in turn 1000 ms apart (product.md §4 "Group
   * chat"), each member's audio queued after the one before.
   */
  const revealGroup = useCallback(
    async (current: ReplyTarget, key: string, answer: GroupReply, entries: ChatHistoryEntry[]) => {
      dispatch({ type: "reveal", step: 1 });
      const who = answer.whoReplies ?? [];
      for (const [index, entry] of entries.entries()) {
        if (index > 0) {
          dispatch({ type: "replyingTo", characterId: who[index] ?? entry.characterUUID });
          await wait(SPLIT_MESSAGE_DELAY_MS);
          if (!isMounted()) return;
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
    [dispatch, isMounted],
  );

  /**
   * One group send (product.md §4 "Group chat"): POST /chat/group/reply with stream=1. Each
   * member's reply streams into its own bubble in turn order: its `entry` event names the member
   * speaking (typing indicator, Stop), its tokens fill the bubble, its sentences' audio is queued
   * after the member before. An answer that did not stream (a repeated send) is revealed entry by
   * entry 1000 ms apart.
   */
  const sendGroup = useCallback(
    async (current: ReplyTarget, key: string, message: string, clientMessageId: string) => {
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
        closingSignal(),
      );
      const entries = answer.history ?? [];
      if (answer.success !== 1 && refused(key, answer, entries[0])) return;
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
    [closingSignal, dispatch, fail, refused, revealGroup],
  );

  return sendGroup;
}
