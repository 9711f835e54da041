// The chat's left sidebar (product.md §2, §6): the user, the character list, or a group's members with add and remove.
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { CharacterListItem, ChatProfileCharacter } from "../../../../common/api";
import { GROUP_MAX_MEMBERS } from "../../../../common/constants";
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
 * The left sidebar (product.md §2): the user's picture, name and 'online'. In a group of more than one
 * member, 'Current Members' (name, greeting, remove); in any group 'Not in Group' (add); otherwise the
 * character list linking to /character-select/{characterUUID}. A drawer on narrow screens.
 */
export function ChatSidebar(props: ChatSidebarProps) {
  const { members, isGroup, characters } = props;
  const memberIds = new Set(members.map((member) => member.id));
  // A group of one still needs 'Not in Group' to grow; its lone member is not offered for removal.
  const showMembers = isGroup && members.length > 1;
  const outside = characters.filter((character) => !memberIds.has(character.characterUUID));
  // product.md §6, 9: a group holds at most 4 members; a full group offers no add button.
  const full = members.length >= GROUP_MAX_MEMBERS;
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
              <SidebarSection id={`${props.id}-members`} title={chatTexts.currentMembers}>
                {members.map((member) => (
                  <li key={member.id} className="chat-sidebar__item">
                    <CharacterLine photo={member.photo} name={member.name} greeting={member.greeting} />
                    <MemberButton
                      label={chatTexts.removeMember(member.name)}
                      busy={props.busy}
                      onClick={() => props.onRemove(member.id)}
                    >
                      −
                    </MemberButton>
                  </li>
                ))}
              </SidebarSection>
            )}
            <SidebarSection
              id={`${props.id}-outside`}
              title={chatTexts.notInGroup}
              empty={
                outside.length === 0
                  ? chatTexts.noOtherCharacters
                  : full
                    ? chatTexts.groupFull(GROUP_MAX_MEMBERS)
                    : undefined
              }
            >
              {outside.map((character) => (
                <li key={character.characterUUID} className="chat-sidebar__item">
                  <CharacterLine
                    photo={character.characterPhoto}
                    name={character.characterName}
                    greeting={character.characterGreeting}
                  />
                  {!full && (
                    <MemberButton
                      label={chatTexts.addMember(character.characterName)}
                      busy={props.busy}
                      onClick={() => props.onAdd(character.characterUUID)}
                    >
                      +
                    </MemberButton>
                  )}
                </li>
              ))}
            </SidebarSection>
          </>
        ) : (
          <SidebarSection id={`${props.id}-characters`} title={chatTexts.characters}>
            {characters.map((character) => (
              <li key={character.characterUUID}>
                <Link
                  className="chat-sidebar__item chat-sidebar__link"
                  to={`/character-select/${character.characterUUID}`}
                  aria-label={chatTexts.chatWith(character.characterName)}
                  aria-current={memberIds.has(character.characterUUID) ? "page" : undefined}
                  onClick={props.onClose}
                >
                  <CharacterLine
                    photo={character.characterPhoto}
                    name={character.characterName}
                    greeting={character.characterGreeting}
                  />
                </Link>
              </li>
            ))}
          </SidebarSection>
        )}
      </aside>
    </>
  );
}

/** One titled list of the sidebar; `empty` shows under the title when the list has nothing. */
function SidebarSection(props: { id: string; title: string; empty?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id} className="chat-sidebar__title">
        {props.title}
      </h2>
      {props.empty !== undefined && <p className="chat-sidebar__empty">{props.empty}</p>}
      <ul className="chat-sidebar__list">{props.children}</ul>
    </section>
  );
}

/** A character's picture, name and greeting, as each sidebar row shows them. */
function CharacterLine(props: { photo: string; name: string; greeting: string }) {
  return (
    <>
      <Avatar src={contentUrl("characters", props.photo)} alt="" size={40} />
      <div className="chat-sidebar__text">
        <p className="chat-sidebar__name">{props.name}</p>
        <p className="chat-sidebar__greeting">{props.greeting}</p>
      </div>
    </>
  );
}

/** The add (+) or remove (−) button of a group row, labelled with what it does. */
function MemberButton(props: { label: string; busy: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      className="chat-sidebar__action"
      aria-label={props.label}
      title={props.label}
      disabled={props.busy}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  );
}
