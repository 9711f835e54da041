import type { ReactNode } from "react";

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
