import { succeed } from "../../../lib/notify";
import { useAdminFreeSubscriptions } from "../hooks/useAdminFreeSubscriptions";
import { useApproveFreeSubscription } from "../hooks/useApproveFreeSubscription";

/**
 * Free-subscription requests (issue 9). Approve creates the Free account and mails the login
 * details, for when the video comment check cannot run.
 */
export function FreeSubscriptionsSection() {
  const requests = useAdminFreeSubscriptions();
  const approve = useApproveFreeSubscription();
  if (requests.data === undefined) return <p className="muted">Loading requests…</p>;
  if (requests.data.length === 0) return <p className="muted">No free-subscription requests yet.</p>;
  return (
    <table className="data-table" aria-label="Free subscriptions">
      <thead>
        <tr>
          <th>Requested</th>
          <th>E-mail</th>
          <th>Code</th>
          <th>Status</th>
          <th>Actions</th>
        </tr>
      </thead>
      <tbody>
        {requests.data.map((r) => (
          <tr key={r.id}>
            <td data-label="Requested">{r.createdAt.replace("T", " ").slice(0, 16)}</td>
            <td data-label="E-mail">{r.email}</td>
            <td data-label="Code">{r.code}</td>
            <td data-label="Status">
              {r.status}
              {r.lastError ? ` (${r.lastError})` : ""}
            </td>
            <td data-label="Actions">
              {r.status !== "verified" && (
                <button
                  type="button"
                  className="button button--ghost"
                  aria-label={`Approve ${r.email}`}
                  disabled={approve.isPending}
                  onClick={() => approve.mutate(r.id, { onSuccess: (answer) => succeed(answer.message) })}
                >
                  Approve
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
