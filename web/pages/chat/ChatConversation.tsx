import { useCallback, useEffect, useId, useMemo, useState } from "react";
import type { ChatProfileInfo } from "../../../common/api";
import { useChatSettings } from "../../hooks/useChatSettings";
import { useMediaQuery } from "../../hooks/useMediaQuery";
import { useSessionUser } from "../../hooks/useSessionUser";
import { audioPlayer } from "../../lib/audioPlayer";
import { AppSwal } from "../../lib/dialogs";
import { ChatBanner } from "./components/ChatBanner";
import { ChatHeader } from "./components/ChatHeader";
import { ChatSidebar } from "./components/ChatSidebar";
import { Composer } from "./components/Composer";
import { MessageList } from "./components/MessageList";
import { PhotoListSidebar } from "./components/PhotoListSidebar";
import { SettingsDialog } from "./components/SettingsDialog";
import { useAdultGate } from "./hooks/useAdultGate";
import { ReplyOwnerContext } from "./hooks/useAudioPlayer";
import { useChatCapabilities } from "./hooks/useChatCapabilities";
import { useChatCharacters } from "./hooks/useChatCharacters";
import { useChatHistory } from "./hooks/useChatHistory";
import { useChatPictures } from "./hooks/useChatPictures";
import { useChatRoomActions } from "./hooks/useChatRoomActions";
import { useChatSender, useLiveChat } from "./hooks/useChatSender";
import { useChatVoice } from "./hooks/useChatVoice";
import { useGreetingVoice } from "./hooks/useGreetingVoice";
import { useMessageEditing } from "./hooks/useMessageEditing";
import { useReplyNotice } from "./hooks/useReplyNotice";
import { useScreenWake } from "./hooks/useScreenWake";
import { conversationItems } from "./liveChat";
import { chatTexts, headerStatus } from "./texts";

interface ChatConversationProps {
  userId: string;
  info: ChatProfileInfo;
  /** The group id in a group chat, else the character id (product.md §4 "Chat loading"). */
  chatId: string;
  isGroup: boolean;
}

/**
 * Whether the stored session user is an admin (its `isAdmin` flag, set by the server from the
 * account's role); false for anyone else and for a session stored before the flag existed.
 */
function isAdmin(user: object | null): boolean {
  return user !== null && "isAdmin" in user && user.isAdmin === true;
}

/** Narrow screens get the sidebar as a drawer, closed at first. */
const NARROW_QUERY = "(max-width: 768px)";

/**
 * One chat: the sidebar, the header with the status and the top menu, the paged history
 * (GET /chat/history/paginated) followed by the messages sent on this screen, and the
 * composer. Render it with a `key` of the chat so another chat starts from a clean state
 * (product.md §4: a new session id reloads).
 */
export function ChatConversation({ userId, info, chatId, isGroup }: ChatConversationProps) {
  // Everything sent on this screen (messages, continued replies, photos) lives in one store, and
  // so does a reply followed while it is written.
  const live = useLiveChat();
  const history = useChatHistory(userId, chatId, live);
  const capabilityQuery = useChatCapabilities();
  const capabilities = capabilityQuery.data;
  // why the chat cannot answer now, said in a visible banner (not a greyed box's tooltip).
  const chatOffReason =
    capabilities !== undefined && !capabilities.chat.enabled
      ? capabilities.chat.reason || chatTexts.chatOff
      : capabilities === undefined && capabilityQuery.isError
        ? chatTexts.serverUnreachable
        : "";
  // An admin is shown where models are set while none is connected (not while one downloads).
  const modelAdminLink =
    isAdmin(useSessionUser()) &&
    capabilities !== undefined &&
    !capabilities.chat.enabled &&
    capabilities.modelDownload === undefined;
  const characters = useChatCharacters().data ?? [];
  const [settings] = useChatSettings();
  const narrow = useMediaQuery(NARROW_QUERY);
  const [sidebarChoice, setSidebarChoice] = useState<boolean | null>(null);
  const sidebarOpen = sidebarChoice ?? !narrow;
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [photoListOpen, setPhotoListOpen] = useState(false);
  const [focusSignal, setFocusSignal] = useState(0);
  const sidebarId = useId();
  useScreenWake(settings.enableScreenWake);
  const adult = useSessionUser()?.adult === "1";
  useAdultGate(adult);

  // On narrow screens the sidebar is a drawer over the chat: it takes the focus while open,
  // Escape closes it like a popup, and the focus goes back to the toggle.
  useEffect(() => {
    if (!narrow || !sidebarOpen) return;
    const drawer = document.getElementById(sidebarId);
    drawer?.querySelector<HTMLElement>("button")?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") setSidebarChoice(false);
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      if (drawer?.contains(document.activeElement) || document.activeElement === document.body)
        document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(sidebarId)}"]`)?.focus();
    };
  }, [narrow, sidebarOpen, sidebarId]);

  const replier = info.characters[0]?.id ?? "";
  const mute = settings.muteVoice || !(capabilities?.voiceReplies.enabled ?? false);
  const target = useMemo(
    () => ({
      chatId,
      characterId: replier,
      isGroup,
      mute,
      notify: settings.enableNotifications,
      senderName: settings.senderName,
      senderAbout: settings.senderAbout,
    }),
    [chatId, replier, isGroup, mute, settings.enableNotifications, settings.senderName, settings.senderAbout],
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

  const laidOut = useMemo(
    () => conversationItems(history.entries, live.state.items),
    [history.entries, live.state.items],
  );
  // the greeting is spoken (audio-message call, is_greeting=1) once on this screen.
  const greetingAudio = useGreetingVoice({
    entries: useMemo(() => laidOut.map((item) => item.entry), [laidOut]),
    chatId,
    mute,
    ready: capabilities !== undefined && !history.isLoading,
    listening: voice.state !== "idle",
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
  // a reply's button follows all of its sentences (their owner is its chatHistoryUUID).
  const ownerOfAudio = useMemo(() => {
    const owners = new Map(
      items
        .filter((item) => item.entry.chatHistoryReplyAudioUrl !== "")
        .map((item) => [item.entry.chatHistoryReplyAudioUrl, item.entry.chatHistoryUUID]),
    );
    return (url: string) => owners.get(url) ?? "";
  }, [items]);
  // Settings 'Bluetooth' sends the chat's audio to the chosen output.
  const audioOutput = settings.enableBluetooth ? settings.audioOutputId : "";
  useEffect(() => audioPlayer.setOutput(audioOutput), [audioOutput]);
  // Settings 'notifications' also shows a system notification while the tab is hidden.
  const nameOf = useCallback(
    (id: string) =>
      info.characters.find((member) => member.id === id)?.name ?? info.characters[0]?.name ?? "",
    [info.characters],
  );
  useReplyNotice(live.state.items, settings.enableNotifications, nameOf);

  const pictureLoading = items.some((item) => item.entry.chatHistoryImageLoading === 1);
  const status = headerStatus(sender.status, pictureLoading, capabilities?.chat.enabled);
  const streamingText = live.state.items.some(
    (item) => item.streaming && item.entry.chatHistoryReplyMessage !== "",
  );

  const confirmNewChat = async () => {
    const answer = await AppSwal.fire({
      icon: "warning",
      titleText: chatTexts.newChatTitle,
      text: chatTexts.newChatText,
      showCancelButton: true,
      confirmButtonText: chatTexts.newChatConfirm,
      cancelButtonText: chatTexts.cancel,
    });
    if (answer.isConfirmed) actions.newChat();
  };

  return (
    <div className={sidebarOpen ? "chat-shell chat-shell--sidebar" : "chat-shell"}>
      <ChatSidebar
        id={sidebarId}
        open={sidebarOpen}
        onClose={() => setSidebarChoice(false)}
        userPicture={info.userPicture}
        userName={info.name || info.userName}
        members={info.characters}
        isGroup={isGroup}
        characters={characters}
        busy={actions.isPending}
        onAdd={actions.addMember}
        onRemove={actions.removeMember}
      />
      <div className="chat-screen">
        <ChatHeader
          characters={info.characters}
          isGroup={isGroup}
          status={status}
          sidebarId={sidebarId}
          sidebarOpen={sidebarOpen}
          onToggleSidebar={() => setSidebarChoice(!sidebarOpen)}
          onNewChat={() => void confirmNewChat()}
          onStartGroup={() => actions.startGroup(replier)}
          onOpenSettings={() => setSettingsOpen(true)}
          onOpenPhotos={pictures.enabled ? () => setPhotoListOpen(true) : undefined}
        />
        <ReplyOwnerContext.Provider value={ownerOfAudio}>
          <MessageList
            items={items}
            characters={info.characters}
            userPicture={info.userPicture}
            showTyping={sender.isReplying && !streamingText}
            typingCharacterId={sender.replyingCharacterId}
            canContinue={!sender.isReplying && !isGroup && (capabilities?.chat.enabled ?? true)}
            onContinue={sender.continueReply}
            onRetry={(key) => (pictures.owns(key) ? pictures.retry(key) : sender.retry(key))}
            isLoading={history.isLoading}
            hasEarlier={history.hasEarlier}
            isLoadingEarlier={history.isLoadingEarlier}
            onLoadEarlier={history.loadEarlier}
            focusSignal={focusSignal}
            chatId={chatId}
            editing={editing}
          />
        </ReplyOwnerContext.Provider>
        <ChatBanner
          reason={chatOffReason}
          download={capabilities?.modelDownload}
          adminLink={modelAdminLink}
        />
        {sender.canStop && (
          <div className="chat-stop">
            <button type="button" className="button button--small" onClick={sender.stop}>
              {chatTexts.stop}
            </button>
          </div>
        )}
        <Composer
          canSend={sender.canSend && !history.isLoading && adult}
          onSend={sender.send}
          chat={capabilities?.chat}
          speechInput={voice.available}
          voice={voice}
          onFocus={() => setFocusSignal((value) => value + 1)}
          pictures={pictures.composer}
        />
      </div>
      {photoListOpen && pictures.enabled && (
        <PhotoListSidebar userId={userId} chatId={chatId} onClose={() => setPhotoListOpen(false)} />
      )}
      {settingsOpen && (
        <SettingsDialog
          chatId={chatId}
          speechInput={voice.available}
          serverSpeech={capabilities?.speechInput}
          modelReady={capabilities?.chat.enabled ?? true}
          onClose={() => setSettingsOpen(false)}
        />
      )}
    </div>
  );
}
