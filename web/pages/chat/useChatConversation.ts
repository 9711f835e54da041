// The data and behaviour of one chat screen: its history and live items, the capabilities, and the senders, voice and edits.
import type { UseQueryResult } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo } from "react";
import type { ChatProfileInfo } from "../../../common/api";
import type { ChatCapabilities } from "../../api/capabilities";
import { type ChatSettings, useChatSettings } from "../../hooks/useChatSettings";
import { useSessionUser } from "../../hooks/useSessionUser";
import { audioPlayer } from "../../lib/audioPlayer";
import { useAdultGate } from "./hooks/useAdultGate";
import { useChatCapabilities } from "./hooks/useChatCapabilities";
import { useChatCharacters } from "./hooks/useChatCharacters";
import { useChatHistory } from "./hooks/useChatHistory";
import { useChatPictures } from "./hooks/useChatPictures";
import { useChatRoomActions } from "./hooks/useChatRoomActions";
import { useChatSender, useLiveChat } from "./hooks/useChatSender";
import { useChatVoice } from "./hooks/useChatVoice";
import { useMessageEditing } from "./hooks/useMessageEditing";
import { useReplyNotice } from "./hooks/useReplyNotice";
import { useScreenWake } from "./hooks/useScreenWake";
import type { LiveChatItem } from "./liveChat";
import { useAnyStreamingText } from "./streamingText";
import { chatTexts, headerStatus } from "./texts";
import { useConversationItems } from "./useConversationItems";

/**
 * Whether the stored session user is an admin (its `isAdmin` flag, set by the server from the
 * account's role); false for anyone else and for a session stored before the flag existed.
 */
function isAdmin(user: object | null): boolean {
  return user !== null && "isAdmin" in user && user.isAdmin === true;
}

/**
 * Why the chat cannot answer now, said in a visible banner (not a greyed box's tooltip), or "";
 * and whether to show an admin where models are set (none connected, none downloading).
 */
function chatAvailability(capabilityQuery: UseQueryResult<ChatCapabilities>, admin: boolean) {
  const capabilities = capabilityQuery.data;
  const reason =
    capabilities !== undefined && !capabilities.chat.enabled
      ? capabilities.chat.reason || chatTexts.chatOff
      : capabilities === undefined && capabilityQuery.isError
        ? chatTexts.serverUnreachable
        : "";
  const adminLink =
    admin &&
    capabilities !== undefined &&
    !capabilities.chat.enabled &&
    capabilities.modelDownload === undefined;
  return { reason, adminLink };
}

/**
 * The settings that act outside the screen: 'Bluetooth' sends the chat's audio to the chosen
 * output; 'notifications' also shows a system notification of a reply while the tab is hidden.
 */
function useChatOutputs(
  settings: ChatSettings,
  items: LiveChatItem[],
  members: ChatProfileInfo["characters"],
) {
  const audioOutput = settings.enableBluetooth ? settings.audioOutputId : "";
  useEffect(() => audioPlayer.setOutput(audioOutput), [audioOutput]);
  const nameOf = useCallback(
    (id: string) => members.find((member) => member.id === id)?.name ?? members[0]?.name ?? "",
    [members],
  );
  useReplyNotice(items, settings.enableNotifications, nameOf);
}

/**
 * One chat screen's data and behaviour (see ChatConversation): the paged history and the live
 * items as the one list shown, the capabilities (and why the chat cannot answer), the text and
 * picture senders, the room's actions, the edits and the voice, and the header's status.
 * @param chatId the group id in a group chat, else the character id (product.md §4 "Chat loading").
 */
export function useChatConversation(userId: string, info: ChatProfileInfo, chatId: string, isGroup: boolean) {
  // Everything sent on this screen (messages, continued replies, photos) lives in one store, and
  // so does a reply followed while it is written.
  const live = useLiveChat();
  const history = useChatHistory(userId, chatId, live);
  const capabilityQuery = useChatCapabilities();
  const capabilities = capabilityQuery.data;
  const availability = chatAvailability(capabilityQuery, isAdmin(useSessionUser()));
  const characters = useChatCharacters().data ?? [];
  const [settings] = useChatSettings();
  useScreenWake(settings.enableScreenWake);
  const adult = useSessionUser()?.adult === "1";
  useAdultGate(adult);

  const replier = info.characters[0]?.id ?? "";
  const mute = settings.muteVoice || !(capabilities?.voiceReplies.enabled ?? false);
  const { enableNotifications: notify, senderName, senderAbout } = settings;
  const target = useMemo(
    () => ({ chatId, characterId: replier, isGroup, mute, notify, senderName, senderAbout }),
    [chatId, replier, isGroup, mute, notify, senderName, senderAbout],
  );
  const sender = useChatSender(replier === "" ? null : target, live);
  // photos from the user and pictures on request.
  const pictures = useChatPictures(userId, chatId, replier, mute, capabilities, live);
  const actions = useChatRoomActions(userId, chatId, isGroup ? chatId : "");
  // swipes, regenerate, edit, delete and rewind.
  const canReply = capabilities?.chat.enabled ?? true;
  const editing = useMessageEditing({ userId, chatId, isGroup, mute, canReply }, live);
  // the microphone and hands-free voice chat.
  const voice = useChatVoice({
    server: capabilities?.speechInput,
    preferServer: settings.useServerSpeech,
    silenceMs: settings.silenceDuration,
    voiceChat: settings.enableVoiceChat,
    characterVoice: info.characters[0]?.voice ?? "",
    send: sender.send,
    isReplying: sender.isReplying,
  });
  const { items, ownerOfAudio } = useConversationItems({
    history: history.entries,
    live: live.state.items,
    chatId,
    mute,
    ready: capabilities !== undefined && !history.isLoading,
    listening: voice.state !== "idle",
  });
  useChatOutputs(settings, live.state.items, info.characters);

  const pictureLoading = items.some((item) => item.entry.chatHistoryImageLoading === 1);
  const status = headerStatus(sender.status, pictureLoading, capabilities?.chat.enabled);
  // Read once the answer changes (a reply's first token), not on every token.
  const streamingText = useAnyStreamingText(
    live.streaming,
    live.state.items.some((item) => item.streaming && item.entry.chatHistoryReplyMessage !== ""),
  );
  return {
    history,
    capabilities,
    availability,
    characters,
    adult,
    replier,
    sender,
    pictures,
    actions,
    editing,
    voice,
    items,
    ownerOfAudio,
    status,
    streamingText,
    /** The text streaming into the replies, for the bubbles (see StreamingText). */
    streamingStore: live.streaming,
  };
}
