import { Link } from "react-router";
import type { CharacterListItem, ChatProfileCharacter } from "../../../../common/api";
import { Avatar } from "../../../components/Avatar";
import { contentUrl } from "../../../lib/content";
import { chatTexts } from "../texts";

interface ChatSidebarProps {
  id: string;
  open: boolean;
  onClose: () => void;
  userPicture: string;
  userName: string;
  members: ChatProfileCharacter[];
  isGroup: boolean;
  /** The user's characters (GET /characters/list/chat). */
  characters: CharacterListItem[];
  busy: boolean;
  onAdd: (characterId: string) => void;
  onRemove: (characterId: string) => void;
}

/**
 * The left sidebar (spec 2): the user's picture, name and 'online'. In a group of more than one
 * member, 'Current Members' (name, greeting, remove); in any group 'Not in Group' (add); otherwise the
 * character list linking to /character-select/{characterUUID}. A drawer on narrow screens.
 */
export function ChatSidebar(props: ChatSidebarProps) {
  const { members, isGroup, characters } = props;
  const memberIds = new Set(members.map((member) => member.id));
  // A group of one still needs 'Not in Group' to grow; its lone member is not offered for removal.
  const showMembers = isGroup && members.length > 1;
  const outside = characters.filter((character) => !memberIds.has(character.characterUUID));
  return (
    <>
      {props.open && <div className="chat-drawer-backdrop" aria-hidden="true" onClick={props.onClose} />}
      <aside
        id={props.id}
        className={props.open ? "chat-sidebar chat-sidebar--open" : "chat-sidebar"}
        aria-label={chatTexts.sidebar}
      >
        <div className="chat-sidebar__user">
          <Avatar src={contentUrl("users", props.userPicture)} alt="" size={48} />
          <div>
            <p className="chat-sidebar__user-name">{props.userName}</p>
            <p className="chat-sidebar__online">{chatTexts.online}</p>
          </div>
          <button
            type="button"
            className="icon-button chat-sidebar__close"
            aria-label={chatTexts.closeSidebar}
            onClick={props.onClose}
          >
            ×
          </button>
        </div>
        {isGroup ? (
          <>
            {showMembers && (
              <section aria-labelledby={`${props.id}-members`}>
                <h2 id={`${props.id}-members`} className="chat-sidebar__title">
                  {chatTexts.currentMembers}
                </h2>
                <ul className="chat-sidebar__list">
                  {members.map((member) => (
                    <li key={member.id} className="chat-sidebar__item">
                      <Avatar src={contentUrl("characters", member.photo)} alt="" size={40} />
                      <div className="chat-sidebar__text">
                        <p className="chat-sidebar__name">{member.name}</p>
                        <p className="chat-sidebar__greeting">{member.greeting}</p>
                      </div>
                      <button
                        type="button"
                        className="chat-sidebar__action"
                        aria-label={chatTexts.removeMember(member.name)}
                        title={chatTexts.removeMember(member.name)}
                        disabled={props.busy}
                        onClick={() => props.onRemove(member.id)}
                      >
                        −
                      </button>
                    </li>
                  ))}
                </ul>
              </section>
            )}
            <section aria-labelledby={`${props.id}-outside`}>
              <h2 id={`${props.id}-outside`} className="chat-sidebar__title">
                {chatTexts.notInGroup}
              </h2>
              {outside.length === 0 && <p className="chat-sidebar__empty">{chatTexts.noOtherCharacters}</p>}
              <ul className="chat-sidebar__list">
                {outside.map((character) => (
                  <li key={character.characterUUID} className="chat-sidebar__item">
                    <Avatar src={contentUrl("characters", character.characterPhoto)} alt="" size={40} />
                    <div className="chat-sidebar__text">
                      <p className="chat-sidebar__name">{character.characterName}</p>
                      <p className="chat-sidebar__greeting">{character.characterGreeting}</p>
                    </div>
                    <button
                      type="button"
                      className="chat-sidebar__action"
                      aria-label={chatTexts.addMember(character.characterName)}
                      title={chatTexts.addMember(character.characterName)}
                      disabled={props.busy}
                      onClick={() => props.onAdd(character.characterUUID)}
                    >
                      +
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          </>
        ) : (
          <section aria-labelledby={`${props.id}-characters`}>
            <h2 id={`${props.id}-characters`} className="chat-sidebar__title">
              {chatTexts.characters}
            </h2>
            <ul className="chat-sidebar__list">
              {characters.map((character) => (
                <li key={character.characterUUID}>
                  <Link
                    className="chat-sidebar__item chat-sidebar__link"
                    to={`/character-select/${character.characterUUID}`}
                    aria-label={chatTexts.chatWith(character.characterName)}
                    aria-current={memberIds.has(character.characterUUID) ? "page" : undefined}
                    onClick={props.onClose}
                  >
                    <Avatar src={contentUrl("characters", character.characterPhoto)} alt="" size={40} />
                    <div className="chat-sidebar__text">
                      <p className="chat-sidebar__name">{character.characterName}</p>
                      <p className="chat-sidebar__greeting">{character.characterGreeting}</p>
                    </div>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        )}
      </aside>
    </>
  );
}
