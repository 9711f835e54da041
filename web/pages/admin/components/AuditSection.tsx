import { useAdminAudit } from "../hooks/useAdminAudit";

/** Every admin action, newest first (issue 9). */
export function AuditSection() {
  const audit = useAdminAudit();
  if (audit.data === undefined) return <p className="muted">Loading the audit log…</p>;
  if (audit.data.length === 0) return <p className="muted">No admin actions yet.</p>;
  return (
    <table className="data-table" aria-label="Audit log">
      <thead>
        <tr>
          <th>Time</th>
          <th>Admin</th>
          <th>Action</th>
          <th>Target</th>
          <th>Details</th>
        </tr>
      </thead>
      <tbody>
        {audit.data.map((a) => (
          <tr key={a.id}>
            <td data-label="Time">{a.createdAt.replace("T", " ").slice(0, 19)}</td>
            <td data-label="Admin">{a.adminEmail}</td>
            <td data-label="Action">{a.action}</td>
            <td data-label="Target">{a.target}</td>
            <td data-label="Details">
              <code>{a.details}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
