// The admin console's data tables: one scaffold for the loading line, the empty line and the table itself.
import type { ReactNode } from "react";

/** One column of an admin table. */
export interface AdminColumn<Row> {
  /** The header's text, and each cell's `data-label` (the narrow layout shows it before the value). */
  label: string;
  /** What the row shows in this column. */
  cell: (row: Row) => ReactNode;
  /** A class on each cell of the column. */
  className?: string;
}

interface AdminTableProps<Row> {
  /** The table's accessible name. */
  label: string;
  /** The rows; `undefined` while they load (the `loading` line is shown instead). */
  rows: Row[] | undefined;
  columns: AdminColumn<Row>[];
  /** The sentence shown while the rows load. */
  loading?: string;
  /** The sentence shown instead of an empty table; without it an empty table is shown. */
  empty?: string;
  /** A class added to `data-table`. */
  className?: string;
}

/**
 * A `data-table` with a header row and one row per item (keyed by its `id`), each cell labelled
 * with its column (`data-label`); while `rows` is undefined the `loading` sentence instead, and
 * for no rows the `empty` sentence when there is one.
 */
export function AdminTable<Row extends { id: string }>({
  label,
  rows,
  columns,
  loading,
  empty,
  className,
}: AdminTableProps<Row>) {
  if (rows === undefined) return <p className="muted">{loading}</p>;
  if (rows.length === 0 && empty !== undefined) return <p className="muted">{empty}</p>;
  return (
    <table className={className === undefined ? "data-table" : `data-table ${className}`} aria-label={label}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.label}>{column.label}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id}>
            {columns.map((column) => (
              <td key={column.label} data-label={column.label} className={column.className}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** An ISO time as the tables show it: "2026-01-31 12:34", or with `seconds` "2026-01-31 12:34:56". */
export function tableTime(iso: string, seconds = false): string {
  return iso.replace("T", " ").slice(0, seconds ? 19 : 16);
}
