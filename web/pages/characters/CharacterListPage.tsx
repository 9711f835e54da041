import { type KeyboardEvent, useId, useState } from "react";
import { Spinner } from "../../components/Spinner";
import { useSessionUser } from "../../hooks/useSessionUser";
import { CharactersTable } from "./components/CharactersTable";
import { CreateCharacterMenu } from "./components/CreateCharacterMenu";
import { GroupsTable } from "./components/GroupsTable";
import { useCharacters } from "./hooks/useCharacters";
import { useGroups } from "./hooks/useGroups";
import { useUnreadCheckins } from "./hooks/useUnreadCheckins";
import "./characters.css";

type Tab = "characters" | "groups";
const TABS: { id: Tab; label: string }[] = [
  { id: "characters", label: "Characters" },
  { id: "groups", label: "Groups" },
];

/**
 * `/characters/list` (spec 2 "Characters and Groups"): tabs Characters (default) and Groups.
 * The Create Character dropdown shows when the user has at least one character and fewer
 * than the creation limit `cl` (spec 2, 6).
 */
export function CharacterListPage() {
  const user = useSessionUser();
  const [tab, setTab] = useState<Tab>("characters");
  const baseId = useId();
  const characters = useCharacters(user?.id);
  const groups = useGroups(tab === "groups" ? user?.id : undefined);
  // Issue 17: check-ins not seen yet (a badge by the name).
  const unread = useUnreadCheckins(user?.id);
  const count = characters.data?.length ?? 0;
  const canCreate = user !== null && count >= 1 && count < Number(user.cl);

  const onTabKey = (event: KeyboardEvent) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const next = tab === "characters" ? "groups" : "characters";
    setTab(next);
    document.getElementById(`${baseId}-tab-${next}`)?.focus();
  };

  const active = tab === "characters" ? characters : groups;

  return (
    <section className="characters-page">
      <div className="page-heading">
        <h1>My Characters</h1>
        {canCreate && <CreateCharacterMenu />}
      </div>
      <div className="tabs" role="tablist" aria-label="Characters and groups">
        {TABS.map((item) => (
          <button
            key={item.id}
            id={`${baseId}-tab-${item.id}`}
            type="button"
            role="tab"
            className="tabs__tab"
            aria-selected={tab === item.id}
            aria-controls={`${baseId}-panel`}
            tabIndex={tab === item.id ? 0 : -1}
            onClick={() => setTab(item.id)}
            onKeyDown={onTabKey}
          >
            {item.label}
          </button>
        ))}
      </div>
      <div
        id={`${baseId}-panel`}
        role="tabpanel"
        aria-labelledby={`${baseId}-tab-${tab}`}
        className="card tab-panel"
      >
        {active.isLoading ? (
          <div className="center-block">
            <Spinner label={tab === "characters" ? "Loading characters" : "Loading groups"} />
          </div>
        ) : active.isError ? (
          <p className="muted center-block">Could not load the list. Please try again later.</p>
        ) : tab === "characters" ? (
          <CharactersTable characters={characters.data ?? []} unread={unread} />
        ) : (
          <GroupsTable groups={groups.data ?? []} />
        )}
      </div>
    </section>
  );
}
