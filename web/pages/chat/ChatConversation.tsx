// One chat on screen (product.md §4): sidebar, header and top menu, paged history with the messages sent here, and the composer.
import { useState } from "react";
import type { ChatProfileInfo } from "../../../common/api";
import { AppSwal } from "../../lib/dialogs";
import { ChatBanner as ChatBannerNow } from "./components/ChatBanner";
import { ChatHeader as ChatHeaderNow } from "./components/ChatHeader";
import { ChatSidebar as ChatSidebarNow } from "./components/ChatSidebar";
import { Composer as ComposerNow } from "./components/Composer";
import { MessageList } from "./components/MessageList";
import { memoSubtree } from "./components/memoSubtree";
import { PhotoListSidebar } from "./components/PhotoListSidebar";
import { SearchPanel } from "./components/SearchPanel";
import { SettingsDialog } from "./components/SettingsDialog";
import { ReplyOwnerContext } from "./hooks/useAudioPlayer";
import { useChatImport } from "./hooks/useChatImport";
import { type MessageJump, useMessageJump } from "./hooks/useMessageJump";
import { chatTexts } from "./texts";
import { useChatConversation } from "./useChatConversation";
import { useSidebarDrawer } from "./useSidebarDrawer";

// A streamed token re-renders the message list's streaming bubble, not these (see memoSubtree).
const ChatSidebar = memoSubtree(ChatSidebarNow);
const ChatHeader = memoSubtree(ChatHeaderNow);
const ChatBanner = memoSubtree(ChatBannerNow);
const Composer = memoSubtree(ComposerNow);

interface ChatConversationProps {
  userId: string;
  info: ChatProfileInfo;
  /** The group id in a group chat, else the character id (product.md §4 "Chat loading"). */
  chatId: string;
  isGroup: boolean;
  /** A message found by search to open the chat at. */
  jump?: MessageJump;
}

/** Asks before New Chat (product.md §2) and calls `newChat` when confirmed. */
async function confirmNewChat(newChat: () => void): Promise<void> {
  const answer = await AppSwal.fire({
    icon: "warning",
    titleText: chatTexts.newChatTitle,
    text: chatTexts.newChatText,
    showCancelButton: true,
    confirmButtonText: chatTexts.newChatConfirm,
    cancelButtonText: chatTexts.cancel,
  });
  if (answer.isConfirmed) newChat();
}

/**
 * One chat: the sidebar, the header with the status and the top menu, the paged history
 * (GET /chat/history/paginated) followed by the messages sent on this screen, and the
 * composer. Render it with a `key` of the chat so another chat starts from a clean state
 * (product.md §4: a new session id reloads).
 */
export function ChatConversation({ userId, info, chatId, isGroup, jump }: ChatConversationProps) {
  const chat = useChatConversation(userId, info, chatId, isGroup);
  const { history, capabilities, availability, characters, adult, replier, sender, pictures, actions } = chat;
  const { editing, voice, items, ownerOfAudio, status, streamingText, streamingStore } = chat;
  const sidebar = useSidebarDrawer();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const importing = useChatImport(chatId);
  const [photoListOpen, setPhotoListOpen] = useState(false);
  const [focusSignal, setFocusSignal] = useState(0);
  const [searchOpen, setSearchOpen] = useState(false);
  const jumpTo = useMessageJump(jump, history);

  return (
    <div className={sidebar.open ? "chat-shell chat-shell--sidebar" : "chat-shell"}>
      <ChatSidebar
        id={sidebar.id}
        open={sidebar.open}
        onClose={() => sidebar.setOpen(false)}
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
          sidebarId={sidebar.id}
          sidebarOpen={sidebar.open}
          onToggleSidebar={() => sidebar.setOpen(!sidebar.open)}
          onNewChat={() => void confirmNewChat(actions.newChat)}
          onStartGroup={() => actions.startGroup(replier)}
          onOpenSettings={() => setSettingsOpen(true)}
          onOpenPhotos={pictures.enabled ? () => setPhotoListOpen(true) : undefined}
          onOpenSearch={() => setSearchOpen(!searchOpen)}
        />
        {searchOpen && <SearchPanel chatId={chatId} onClose={() => setSearchOpen(false)} />}
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
            jumpTo={jumpTo}
            streamingText={streamingStore}
          />
        </ReplyOwnerContext.Provider>
        <ChatBanner
          reason={availability.reason}
          download={capabilities?.modelDownload}
          adminLink={availability.adminLink}
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
          onImportFile={isGroup ? undefined : (file) => void importing.start(file)}
          speechInput={voice.available}
          serverSpeech={capabilities?.speechInput}
          modelReady={capabilities?.chat.enabled ?? true}
          onClose={() => setSettingsOpen(false)}
        />
      )}
    </div>
  );
}
