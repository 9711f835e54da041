import { useCallback, useId, useRef, useState } from "react";
import { Link } from "react-router";
import type { ChatProfileCharacter } from "../../../../common/api";
import { Avatar } from "../../../components/Avatar";
import type { ChatStatus } from "../../../hooks/useChatSender";
import { useDismiss } from "../../../hooks/useDismiss";
import { contentUrl } from "../../../lib/content";

interface ChatHeaderProps {
  characters: ChatProfileCharacter[];
  isGroup: boolean;
  status: ChatStatus;
}

/**
 * The chat header (spec 2): the character's photo (overlapping avatars for a group), a status
 * dot, the name and the status text, and the top menu (Change Character, Logout for now).
 */
export function ChatHeader({ characters, isGroup, status }: ChatHeaderProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const first = characters[0];
  const name = isGroup ? characters.map((character) => character.name).join(", ") : (first?.name ?? "");
  const statusClass = status === "online" ? "online" : status === "away" ? "away" : "busy";

  const close = useCallback(() => setMenuOpen(false), []);
  useDismiss(root, menuOpen, close);

  return (
    <header className="chat-header">
      <Link to="/characters/list" className="icon-button" aria-label="Back to characters">
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
          <path d="M15.4 5.4 14 4l-8 8 8 8 1.4-1.4L8.8 12z" fill="currentColor" />
        </svg>
      </Link>
      <div className="chat-header__who">
        <div className="chat-header__photo">
          {isGroup ? (
            <div className="avatar-stack">
              {characters.map((character) => (
                <Avatar
                  key={character.id}
                  src={contentUrl("characters", character.photo)}
                  alt={character.name}
                  title={character.name}
                  size={40}
                />
              ))}
            </div>
          ) : (
            <Avatar src={contentUrl("characters", first?.photo)} alt={first?.name ?? ""} size={44} />
          )}
          <span className={`status-dot status-dot--${statusClass}`} aria-hidden="true" />
        </div>
        <div className="chat-header__text">
          <h1 className="chat-header__name">{name}</h1>
          <p className="chat-header__status" aria-live="polite">
            {status}
          </p>
        </div>
      </div>
      <div className="dropdown dropdown--right" ref={root}>
        <button
          type="button"
          className="icon-button"
          aria-label="Chat menu"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          onClick={() => setMenuOpen((value) => !value)}
        >
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <circle cx="12" cy="5" r="2" fill="currentColor" />
            <circle cx="12" cy="12" r="2" fill="currentColor" />
            <circle cx="12" cy="19" r="2" fill="currentColor" />
          </svg>
        </button>
        <ul
          id={menuId}
          className={
            menuOpen ? "dropdown__menu dropdown__menu--slide open" : "dropdown__menu dropdown__menu--slide"
          }
          inert={!menuOpen}
        >
          <li>
            <Link to="/characters/list">Change Character</Link>
          </li>
          <li>
            <Link to="/logout">Logout</Link>
          </li>
        </ul>
      </div>
    </header>
  );
}
