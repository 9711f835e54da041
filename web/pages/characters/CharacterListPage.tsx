// The /characters/list screen (product.md §2 "Characters and Groups"): the two tabs and the Create Character dropdown.
import { type KeyboardEvent, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Spinner } from "../../components/Spinner";
import { useSessionUser } from "../../hooks/useSessionUser";
import { preloadChatPage } from "../../pageChunks";
import { CharactersTable } from "./components/CharactersTable";
import { CreateCharacterMenu } from "./components/CreateCharacterMenu";
import { GroupsTable } from "./components/GroupsTable";
import { useCharacters } from "./hooks/useCharacters";
import { useGroups } from "./hooks/useGroups";
import { useUnreadCheckins } from "./hooks/useUnreadCheckins";
import "./characters.css";

type Tab = "characters" | "groups";
/** The tabs and their labels' keys in the "characters" catalogue. */
const TABS: { id: Tab; label: string }[] = [
  { id: "characters", label: "list.characters" },
  { id: "groups", label: "list.groups" },
];

/**
 * `/characters/list` (product.md §2 "Characters and Groups"): tabs Characters (default) and Groups.
 * The Create Character dropdown shows when the user has at least one character and fewer
 * than the creation limit `cl` (product.md §2, 6).
 */
export function CharacterListPage() {
  const { t } = useTranslation("characters");
  const user = useSessionUser();
  const [tab, setTab] = useState<Tab>("characters");
  const baseId = useId();
  const characters = useCharacters(user?.id);
  const groups = useGroups(tab === "groups" ? user?.id : undefined);
  // Check-ins not seen yet (a badge by the name).
  const unread = useUnreadCheckins(user?.id);
  const count = characters.data?.length ?? 0;
  const canCreate = user !== null && count >= 1 && count < Number(user.cl);
  // A character to start a chat with: the chat screen's code comes while the list is idle.
  const hasChats = count > 0 || (groups.data?.length ?? 0) > 0;
  useEffect(() => {
    if (hasChats) preloadChatPage();
  }, [hasChats]);

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
        <h1>{t("list.title")}</h1>
        {canCreate && <CreateCharacterMenu />}
      </div>
      <div className="tabs" role="tablist" aria-label={t("list.tabs")}>
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
            {t(item.label)}
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
            <Spinner label={tab === "characters" ? t("list.loadingCharacters") : t("list.loadingGroups")} />
          </div>
        ) : active.isError ? (
          <p className="muted center-block">{t("list.loadFailed")}</p>
        ) : tab === "characters" ? (
          <CharactersTable characters={characters.data ?? []} unread={unread} />
        ) : (
          <GroupsTable groups={groups.data ?? []} />
        )}
      </div>
    </section>
  );
}
