// The bubbles' items of one chat screen: the history and the live items as one list, with the greeting's audio and each audio's owner.
import { useMemo } from "react";
import type { ChatHistoryEntry } from "../../../common/api";
import { useGreetingVoice } from "./hooks/useGreetingVoice";
import { conversationItems, type LiveChatItem } from "./liveChat";

interface ConversationItemsInput {
  /** The loaded history, oldest first. */
  history: ChatHistoryEntry[];
  /** The live items of this screen (see liveChat.ts). */
  live: LiveChatItem[];
  chatId: string;
  mute: boolean;
  /** The greeting may be spoken now (the capabilities and the history are loaded). */
  ready: boolean;
  /** The microphone is on: the greeting waits. */
  listening: boolean;
}

/**
 * The one list the conversation shows (`conversationItems`), the greeting spoken once on this
 * screen (audio-message call, is_greeting=1) with its audio on its bubble, and `ownerOfAudio`: the
 * chatHistoryUUID of the reply an audio URL belongs to ("" for none), so a reply's button follows
 * all of its sentences.
 */
export function useConversationItems({
  history,
  live,
  chatId,
  mute,
  ready,
  listening,
}: ConversationItemsInput) {
  const laidOut = useMemo(() => conversationItems(history, live), [history, live]);
  const greetingAudio = useGreetingVoice({
    entries: useMemo(() => laidOut.map((item) => item.entry), [laidOut]),
    chatId,
    mute,
    ready,
    listening,
  });
  const items = useMemo(
    () =>
      greetingAudio.size === 0
        ? laidOut
        : laidOut.map((item) => {
            const url = greetingAudio.get(item.entry.chatHistoryUUID);
            return url && !item.entry.chatHistoryReplyAudioUrl
              ? { ...item, entry: { ...item.entry, chatHistoryReplyAudioUrl: url } }
              : item;
          }),
    [laidOut, greetingAudio],
  );
  // One identity while the audios' owners stay the same (a streamed token does not change them),
  // so the bubbles reading it through a context are not re-rendered for each token.
  const owned = items
    .filter((item) => item.entry.chatHistoryReplyAudioUrl !== "")
    .map((item) => [item.entry.chatHistoryReplyAudioUrl, item.entry.chatHistoryUUID] as const);
  const ownedKey = JSON.stringify(owned);
  // biome-ignore lint/correctness/useExhaustiveDependencies: ownedKey stands for `owned`
  const ownerOfAudio = useMemo(() => {
    const owners = new Map(owned);
    return (url: string) => owners.get(url) ?? "";
  }, [ownedKey]);
  return { items, ownerOfAudio };
}
