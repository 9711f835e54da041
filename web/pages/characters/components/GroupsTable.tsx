// The Groups tab's table (product.md §2): member avatars, 'Start Chatting' and delete with confirmation.
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { CharacterGroup } from "../../../api/characters";
import { Avatar } from "../../../components/Avatar";
import { contentUrl } from "../../../lib/content";
import { useDeleteGroup } from "../hooks/useDeleteGroup";
import { DeleteRowButton } from "./DeleteRowButton";
import { ActionsCell, ListTable } from "./ListTable";

/** The members' names, for the row's accessible labels ('group of Ann and Bea'). */
function groupLabel(group: CharacterGroup, t: TFunction<"characters">): string {
  const names = group.members.map((member) => member.memberName);
  if (names.length === 0) return t("table.emptyGroup");
  if (names.length === 1) return t("table.groupOfOne", { name: names[0] });
  return t("table.groupOfMany", { names: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

/**
 * The Groups tab (product.md §2): member avatars (40x40, round, name as title) or 'No Members',
 * 'Start Chatting' with the group id as navigation state, and delete after the 'group'
 * confirmation (product.md §8). Empty: 'No Groups created.'
 */
export function GroupsTable({ groups }: { groups: CharacterGroup[] }) {
  const { t } = useTranslation("characters");
  const remove = useDeleteGroup();

  if (groups.length === 0) {
    return (
      <div className="empty-state">
        <p>{t("table.noGroups")}</p>
      </div>
    );
  }
  return (
    <ListTable columns={[t("table.characters"), t("table.actions")]}>
      {groups.map((group) => (
        <tr key={group.groupUUID}>
          <td data-label={t("table.characters")}>
            {group.members.length === 0 ? (
              <span className="muted">{t("table.noMembers")}</span>
            ) : (
              <div className="avatar-stack">
                {group.members.map((member, index) => (
                  <Avatar
                    // biome-ignore lint/suspicious/noArrayIndexKey: the order is stable and names may repeat
                    key={`${member.memberUUID ?? member.memberName}-${index}`}
                    src={contentUrl("characters", member.memberPhoto)}
                    alt={member.memberName}
                    title={member.memberName}
                    size={40}
                  />
                ))}
              </div>
            )}
          </td>
          <ActionsCell chatId={group.groupUUID}>
            <DeleteRowButton kind="group" remove={remove} id={group.groupUUID} label={groupLabel(group, t)} />
          </ActionsCell>
        </tr>
      ))}
    </ListTable>
  );
}
