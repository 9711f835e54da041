import { type FormEvent, useState } from "react";
import type { AdminUser } from "../../../api/admin";
import { succeed } from "../../../lib/notify";
import { useAdminPlans } from "../hooks/useAdminPlans";
import { useAdminUserAction } from "../hooks/useAdminUserAction";
import { useAdminUsers } from "../hooks/useAdminUsers";
import { AdminField } from "./AdminField";

/** Users: search, plan, limits, block, reset the count (issue 9). */
export function UsersSection() {
  const [draft, setDraft] = useState("");
  const [query, setQuery] = useState("");
  const users = useAdminUsers(query);
  const [limitsOf, setLimitsOf] = useState<string | null>(null);
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setQuery(draft.trim());
  };
  return (
    <>
      <form className="row-actions" aria-label="Search users" onSubmit={onSearch}>
        <AdminField label="Search users (e-mail or name)" kind="text" value={draft} onChange={setDraft} />
        <button type="submit" className="button button--primary">
          Search
        </button>
      </form>
      {users.data === undefined ? (
        <p className="muted">Loading users…</p>
      ) : users.data.length === 0 ? (
        <p className="muted">No user found.</p>
      ) : (
        <table className="data-table" aria-label="Users">
          <thead>
            <tr>
              <th>E-mail</th>
              <th>Plan</th>
              <th>Messages</th>
              <th>Status</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {users.data.map((user) => (
              <UserRow key={user.id} user={user} onLimits={() => setLimitsOf(user.id)} />
            ))}
          </tbody>
        </table>
      )}
      {users.data
        ?.filter((user) => user.id === limitsOf)
        .map((user) => (
          <LimitsForm key={user.id} user={user} onDone={() => setLimitsOf(null)} />
        ))}
    </>
  );
}

function UserRow({ user, onLimits }: { user: AdminUser; onLimits: () => void }) {
  const plans = useAdminPlans();
  const action = useAdminUserAction();
  const [planId, setPlanId] = useState(user.planId);
  const done = (answer: { message: string }) => succeed(answer.message);
  return (
    <tr>
      <td data-label="E-mail">
        {user.email}
        {user.role === "admin" ? " (admin)" : ""}
      </td>
      <td data-label="Plan">
        {user.planName}
        {user.planEndsAt ? ` until ${user.planEndsAt.slice(0, 10)}` : ""}
      </td>
      <td data-label="Messages">
        {user.chatCount} / {user.chatLimit} (+{user.extraMessages})
      </td>
      <td data-label="Status">{user.blocked ? "Blocked" : "Active"}</td>
      <td data-label="Actions">
        <div className="row-actions">
          <AdminField
            label={`Plan of ${user.email}`}
            kind="select"
            value={planId}
            onChange={setPlanId}
            options={(plans.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          />
          <button
            type="button"
            className="button button--ghost"
            aria-label={`Set plan of ${user.email}`}
            disabled={action.isPending}
            onClick={() => action.mutate({ kind: "plan", userId: user.id, planId }, { onSuccess: done })}
          >
            Set plan
          </button>
          <button
            type="button"
            className="button button--ghost"
            aria-label={`Limits of ${user.email}`}
            onClick={onLimits}
          >
            Limits
          </button>
          <button
            type="button"
            className="button button--ghost"
            aria-label={`Reset count of ${user.email}`}
            disabled={action.isPending}
            onClick={() => action.mutate({ kind: "reset-count", userId: user.id }, { onSuccess: done })}
          >
            Reset count
          </button>
          <button
            type="button"
            className="button button--ghost"
            aria-label={`${user.blocked ? "Unblock" : "Block"} ${user.email}`}
            disabled={action.isPending}
            onClick={() =>
              action.mutate({ kind: "block", userId: user.id, blocked: !user.blocked }, { onSuccess: done })
            }
          >
            {user.blocked ? "Unblock" : "Block"}
          </button>
        </div>
      </td>
    </tr>
  );
}

function LimitsForm({ user, onDone }: { user: AdminUser; onDone: () => void }) {
  const action = useAdminUserAction();
  const [limits, setLimits] = useState({
    cl: user.cl,
    vl: user.vl,
    pl: user.pl,
    il: user.il,
    chatLimit: user.chatLimit,
    extraMessages: user.extraMessages,
  });
  const num = (value: string) => Math.max(0, Number.parseInt(value, 10) || 0);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    action.mutate(
      { kind: "limits", userId: user.id, limits },
      {
        onSuccess: (answer) => {
          succeed(answer.message);
          onDone();
        },
      },
    );
  };
  return (
    <form className="form admin-form" aria-label={`Limits of ${user.email}`} onSubmit={onSubmit}>
      <h2>Limits of {user.email}</h2>
      <p className="muted">These hold until the user's next plan change.</p>
      <AdminField
        label="Character limit (cl)"
        kind="number"
        value={String(limits.cl)}
        onChange={(v) => setLimits({ ...limits, cl: num(v) })}
      />
      <AdminField
        label="Voice limit (vl)"
        kind="number"
        value={String(limits.vl)}
        onChange={(v) => setLimits({ ...limits, vl: num(v) })}
      />
      <AdminField
        label="Photo upload (pl)"
        kind="checkbox"
        value={limits.pl}
        onChange={(v) => setLimits({ ...limits, pl: v })}
      />
      <AdminField
        label="Appearance and images (il)"
        kind="checkbox"
        value={limits.il}
        onChange={(v) => setLimits({ ...limits, il: v })}
      />
      <AdminField
        label="Chat limit"
        kind="number"
        value={String(limits.chatLimit)}
        onChange={(v) => setLimits({ ...limits, chatLimit: num(v) })}
      />
      <AdminField
        label="Add-on messages left"
        kind="number"
        value={String(limits.extraMessages)}
        onChange={(v) => setLimits({ ...limits, extraMessages: num(v) })}
      />
      <div className="entity-form__actions">
        <button type="button" className="button button--ghost" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={action.isPending}>
          Save limits
        </button>
      </div>
    </form>
  );
}
