// The characters page's list table and a row's Actions cell (product.md §2), shared by the Characters and Groups tabs.
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { StartChatLink } from "./StartChatLink";

/**
 * The characters page's list table (product.md §2): one column head per name, the rows as children.
 * Each cell gives its column's name as `data-label` (the narrow-screen layout shows it).
 */
export function ListTable({ columns, children }: { columns: string[]; children: ReactNode }) {
  return (
    <table className="data-table">
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/**
 * A row's Actions cell (product.md §2): 'Start Chatting' with `chatId` (a character's or a group's
 * id), then the row's other actions.
 */
export function ActionsCell({ chatId, children }: { chatId: string; children: ReactNode }) {
  const { t } = useTranslation("characters");
  return (
    <td data-label={t("table.actions")}>
      <div className="row-actions">
        <StartChatLink chatId={chatId} />
        {children}
      </div>
    </td>
  );
}
