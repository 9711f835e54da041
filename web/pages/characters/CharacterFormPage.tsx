// The /characters/add and /characters/update screen (product.md §2): loads the character to edit and shows the form.
import { useTranslation } from "react-i18next";
import { Link, Navigate, useLocation } from "react-router";
import { Spinner } from "../../components/Spinner";
import { CharacterForm } from "./components/CharacterForm";
import { useCharacter } from "./hooks/useCharacter";
import "./characters.css";
import { EntityPage } from "../../components/EntityForm";

/** The character id from the navigation state `{ id }` (product.md §2: the list's edit button passes it). */
function idFromState(state: unknown): string {
  if (typeof state === "object" && state !== null && "id" in state && typeof state.id === "string") {
    return state.id;
  }
  return "";
}

/**
 * `/characters/add` and `/characters/update` (product.md §2: the same screen). On update the character
 * id arrives as navigation state and the character is loaded with GET /characters/?id=; without
 * an id the screen goes back to the list.
 */
export function CharacterFormPage({ mode }: { mode: "add" | "update" }) {
  const { t } = useTranslation("characters");
  const location = useLocation();
  const id = mode === "update" ? idFromState(location.state) : "";
  const character = useCharacter(id || undefined);

  if (mode === "update" && id === "") return <Navigate to="/characters/list" replace />;

  const title = mode === "add" ? t("form.newTitle") : t("form.editTitle");
  return (
    <EntityPage title={title}>
      <div className="card entity-card">
        {mode === "add" ? (
          <CharacterForm />
        ) : character.isLoading ? (
          <div className="center-block">
            <Spinner label={t("form.loading")} />
          </div>
        ) : character.data === undefined ? (
          <div className="empty-state">
            <p>{t("form.loadFailed")}</p>
            <Link className="button button--ghost" to="/characters/list">
              {t("form.backToList")}
            </Link>
          </div>
        ) : (
          <CharacterForm key={character.data.characterUUID} character={character.data} />
        )}
      </div>
    </EntityPage>
  );
}
