// The Characters tab's table (product.md §2): photo and name, backstory, unread check-in badge, chat/edit/export/delete.
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { CharacterListItem } from "../../../../common/api";
import { Avatar } from "../../../components/Avatar";
import { contentUrl } from "../../../lib/content";
import { showTextPopup } from "../../../lib/dialogs";
import { truncate } from "../../../lib/text";
import { useDeleteCharacter } from "../hooks/useDeleteCharacter";
import { useExportCharacterCard } from "../hooks/useExportCharacterCard";
import { DeleteRowButton } from "./DeleteRowButton";
import { ActionsCell, ListTable } from "./ListTable";

/**
 * The Characters tab (product.md §2): Photo (with the name), Backstory cut to 50 characters with
 * 'Show more' opening the full text, and Actions: 'Start Chatting' (the character id goes to
 * /chat as navigation state), edit (/characters/update with the id as state), 'Export card'
 * (a PNG character card download) and delete, shown only when the user has more than one
 * character (product.md §6) and confirmed first (product.md §8). Empty: 'No characters found.'
 * A badge by the name counts the check-ins the user has not seen yet.
 */
export function CharactersTable({
  characters,
  unread = new Map(),
}: {
  characters: CharacterListItem[];
  /** Character id → check-ins the user has not seen (a badge by the name). */
  unread?: Map<string, number>;
}) {
  const { t } = useTranslation("characters");
  const remove = useDeleteCharacter();
  const exportCard = useExportCharacterCard();
  const canDelete = characters.length > 1;

  if (characters.length === 0) {
    return (
      <div className="empty-state">
        <p>{t("table.empty")}</p>
        <div className="row-actions">
          <Link className="button button--primary" to="/characters/selection">
            {t("table.choosePreset")}
          </Link>
          <Link className="button button--ghost" to="/characters/add">
            {t("table.newCharacter")}
          </Link>
        </div>
      </div>
    );
  }
  return (
    <ListTable columns={[t("table.photo"), t("table.backstory"), t("table.actions")]}>
      {characters.map((character) => {
        const preview = truncate(character.characterDescription);
        const name = character.characterName;
        const unreadCount = unread.get(character.characterUUID) ?? 0;
        return (
          <tr key={character.characterUUID}>
            <td data-label={t("table.photo")}>
              <div className="identity">
                <Avatar src={contentUrl("characters", character.characterPhoto)} alt={name} size={56} />
                <span className="identity__name">{name}</span>
                {unreadCount > 0 && (
                  <span
                    className="unread-badge"
                    role="status"
                    aria-label={t(unreadCount === 1 ? "table.unreadOne" : "table.unreadMany", {
                      n: unreadCount,
                      name,
                    })}
                  >
                    {unreadCount}
                  </span>
                )}
              </div>
            </td>
            <td data-label={t("table.backstory")} className="backstory">
              {preview.text}{" "}
              {preview.truncated && (
                <button
                  type="button"
                  className="link-button link-button--inline"
                  onClick={() => void showTextPopup(name, character.characterDescription)}
                >
                  {t("table.showMore")}
                </button>
              )}
            </td>
            <ActionsCell chatId={character.characterUUID}>
              <Link
                className="button button--ghost button--small"
                to="/characters/update"
                state={{ id: character.characterUUID }}
                aria-label={t("table.editOf", { name })}
              >
                {t("table.edit")}
              </Link>
              <button
                type="button"
                className="button button--ghost button--small"
                onClick={() => exportCard.mutate(character.characterUUID)}
                disabled={exportCard.isPending}
                aria-label={t("table.exportCardOf", { name })}
              >
                {t("table.exportCard")}
              </button>
              {canDelete && (
                <DeleteRowButton kind="character" remove={remove} id={character.characterUUID} label={name} />
              )}
            </ActionsCell>
          </tr>
        );
      })}
    </ListTable>
  );
}
