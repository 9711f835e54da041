import { useAdminContactMessages } from "../hooks/useAdminContactMessages";

/** Messages sent through the contact form, newest first (issue 9). */
export function ContactSection() {
  const messages = useAdminContactMessages();
  if (messages.data === undefined) return <p className="muted">Loading messages…</p>;
  if (messages.data.length === 0) return <p className="muted">No contact messages yet.</p>;
  return (
    <table className="data-table" aria-label="Contact messages">
      <thead>
        <tr>
          <th>Received</th>
          <th>From</th>
          <th>Subject</th>
          <th>Message</th>
        </tr>
      </thead>
      <tbody>
        {messages.data.map((m) => (
          <tr key={m.id}>
            <td data-label="Received">{m.createdAt.replace("T", " ").slice(0, 16)}</td>
            <td data-label="From">
              {m.name} &lt;{m.email}&gt;
            </td>
            <td data-label="Subject">{m.subject}</td>
            <td data-label="Message" className="admin-message">
              {m.message}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
