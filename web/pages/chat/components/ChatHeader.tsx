// The chat header (product.md §2): sidebar toggle, character or member photos, status, and the top menu (New Chat, Settings…).
import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import type { ChatProfileCharacter } from "../../../../common/api";
import { Avatar } from "../../../components/Avatar";
import { contentUrl } from "../../../lib/content";
import { useChatMenu } from "../hooks/useChatMenu";
import { imageTexts } from "../imageTexts";
import { searchTexts } from "../searchTexts";
import { type ChatStatus, chatTexts } from "../texts";
import { ChatIcon } from "./ChatIcon";
import { ChatMenuButton } from "./ChatMenuButton";
import { IconButton } from "./IconButton";
import { PhotoViewer } from "./PhotoViewer";

interface ChatHeaderProps {
  characters: ChatProfileCharacter[];
  isGroup: boolean;
  status: ChatStatus;
  sidebarId: string;
  sidebarOpen: boolean;
  onToggleSidebar: () => void;
  onNewChat: () => void;
  onStartGroup: () => void;
  onOpenSettings: () => void;
  /** Opens the right sidebar 'Photo List'; absent when image generation is off (product.md §2). */
  onOpenPhotos?: () => void;
  /** Opens message search (product.md "Search"); absent: no search button. */
  onOpenSearch?: () => void;
}

/**
 * The chat header (product.md §2): the sidebar toggle; overlapping member avatars for a group,
 * otherwise the character's photo; the status dot, the name and the status text; tapping a
 * photo shows it full size. The top menu: New Chat, Start Group (outside a group), Change
 * Character, Settings, Update Profile, Change Password, F.A.Q, Logout.
 */
export function ChatHeader(props: ChatHeaderProps) {
  const { characters, isGroup, status } = props;
  const [viewing, setViewing] = useState<ChatProfileCharacter | null>(null);
  const name = isGroup
    ? characters.map((character) => character.name).join(", ")
    : (characters[0]?.name ?? "");
  const statusClass =
    status === "online" ? "online" : status === "away" || status === "unavailable" ? "away" : "busy";

  return (
    <header className="chat-header">
      <IconButton
        label={chatTexts.toggleSidebar}
        aria-controls={props.sidebarId}
        aria-expanded={props.sidebarOpen}
        onClick={props.onToggleSidebar}
      >
        <ChatIcon d="M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z" />
      </IconButton>
      <div className="chat-header__who">
        <div className="chat-header__photo">
          <HeaderPhotos characters={characters} isGroup={isGroup} onShow={setViewing} />
          <span className={`status-dot status-dot--${statusClass}`} aria-hidden="true" />
        </div>
        <div className="chat-header__text">
          <h1 className="chat-header__name">{name}</h1>
          <p className="chat-header__status" aria-live="polite">
            {chatTexts.status(status)}
          </p>
        </div>
      </div>
      {props.onOpenSearch && (
        <IconButton label={searchTexts.open} onClick={props.onOpenSearch}>
          <ChatIcon d="M15.5 14h-.79l-.28-.27A6.47 6.47 0 0 0 16 9.5 6.5 6.5 0 1 0 9.5 16c1.61 0 3.09-.59 4.23-1.57l.27.28v.79l5 4.99L20.49 19l-4.99-5zm-6 0C7.01 14 5 11.99 5 9.5S7.01 5 9.5 5 14 7.01 14 9.5 11.99 14 9.5 14z" />
        </IconButton>
      )}
      {props.onOpenPhotos && (
        <IconButton label={imageTexts.photoList} onClick={props.onOpenPhotos}>
          <ChatIcon d="M21 19V5a2 2 0 0 0-2-2H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2zM8.5 13.5l2.5 3 3.5-4.5 4.5 6H5l3.5-4.5z" />
        </IconButton>
      )}
      <ChatHeaderMenu
        isGroup={isGroup}
        onNewChat={props.onNewChat}
        onStartGroup={props.onStartGroup}
        onOpenSettings={props.onOpenSettings}
      />
      {viewing && (
        <PhotoViewer
          src={contentUrl("characters", viewing.photo)}
          name={viewing.name}
          onClose={() => setViewing(null)}
        />
      )}
    </header>
  );
}

/** The header's photos: overlapping member avatars for a group, else the character's; each opens `onShow`. */
function HeaderPhotos({
  characters,
  isGroup,
  onShow,
}: {
  characters: ChatProfileCharacter[];
  isGroup: boolean;
  onShow: (character: ChatProfileCharacter) => void;
}) {
  const first = characters[0];
  if (!isGroup) {
    if (first === undefined) return null;
    return (
      <IconButton
        className="chat-photo-button"
        label={chatTexts.showPhoto(first.name)}
        onClick={() => onShow(first)}
      >
        <Avatar src={contentUrl("characters", first.photo)} alt="" size={44} />
      </IconButton>
    );
  }
  return (
    <div className="avatar-stack">
      {characters.map((character) => (
        <IconButton
          key={character.id}
          className="chat-photo-button"
          label={chatTexts.showPhoto(character.name)}
          onClick={() => onShow(character)}
        >
          <Avatar src={contentUrl("characters", character.photo)} alt="" title={character.name} size={40} />
        </IconButton>
      ))}
    </div>
  );
}

/**
 * The header's top menu (product.md §2): New Chat, Start Group (outside a group), Change Character,
 * Settings, Update Profile, Change Password, F.A.Q, Logout.
 */
function ChatHeaderMenu(
  props: Pick<ChatHeaderProps, "isGroup" | "onNewChat" | "onStartGroup" | "onOpenSettings">,
) {
  const menu = useChatMenu();
  const { root, pick } = menu;
  return (
    <div className="dropdown dropdown--right" ref={root}>
      <ChatMenuButton menu={menu} label={chatTexts.chatMenu}>
        <ChatIcon>
          <circle cx="12" cy="5" r="2" fill="currentColor" />
          <circle cx="12" cy="12" r="2" fill="currentColor" />
          <circle cx="12" cy="19" r="2" fill="currentColor" />
        </ChatIcon>
      </ChatMenuButton>
      <ul {...menu.list}>
        <MenuAction onClick={pick(props.onNewChat)}>{chatTexts.newChat}</MenuAction>
        {!props.isGroup && <MenuAction onClick={pick(props.onStartGroup)}>{chatTexts.startGroup}</MenuAction>}
        <MenuLink to="/characters/list">{chatTexts.changeCharacter}</MenuLink>
        <MenuAction onClick={pick(props.onOpenSettings)}>{chatTexts.settings}</MenuAction>
        <MenuLink to="/user/profile">{chatTexts.updateProfile}</MenuLink>
        <MenuLink to="/user/change-password">{chatTexts.changePassword}</MenuLink>
        <MenuLink to="/faq">{chatTexts.faq}</MenuLink>
        <MenuLink to="/logout">{chatTexts.logout}</MenuLink>
      </ul>
    </div>
  );
}

/** One item of the top menu that acts on this screen. */
function MenuAction({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <li>
      <button type="button" className="dropdown__item" onClick={onClick}>
        {children}
      </button>
    </li>
  );
}

/** One item of the top menu that opens another page. */
function MenuLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <li>
      <Link to={to}>{children}</Link>
    </li>
  );
}
