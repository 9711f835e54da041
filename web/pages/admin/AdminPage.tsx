import { useState } from "react";
import { Navigate } from "react-router";
import { Spinner } from "../../components/Spinner";
import { AuditSection } from "./components/AuditSection";
import { ContactSection } from "./components/ContactSection";
import { FreeSubscriptionsSection } from "./components/FreeSubscriptionsSection";
import { PlansSection } from "./components/PlansSection";
import { PresetsSection } from "./components/PresetsSection";
import { UsersSection } from "./components/UsersSection";
import { useAdminAccess } from "./hooks/useAdminAccess";
import "./admin.css";

const TABS = [
  { id: "plans", label: "Plans", Panel: PlansSection },
  { id: "presets", label: "Preset characters", Panel: PresetsSection },
  { id: "users", label: "Users", Panel: UsersSection },
  { id: "contact", label: "Contact messages", Panel: ContactSection },
  { id: "free", label: "Free subscriptions", Panel: FreeSubscriptionsSection },
  { id: "audit", label: "Audit log", Panel: AuditSection },
] as const;

type TabId = (typeof TABS)[number]["id"];

/**
 * `/admin` (issue 9): the admin console. Nothing of it renders until the server confirms the
 * admin role (GET /admin/me); anyone else is sent to /forbidden. Every call is checked on the
 * server again.
 */
export function AdminPage() {
  const access = useAdminAccess();
  const [tab, setTab] = useState<TabId>("plans");
  if (access.isError) return <Navigate to="/forbidden" replace />;
  if (access.data === undefined) {
    return (
      <div className="center-block">
        <Spinner label="Checking access" />
      </div>
    );
  }
  const current = TABS.find((t) => t.id === tab) ?? TABS[0];
  return (
    <section className="entity-page admin-page">
      <div className="page-heading">
        <h1>Admin console</h1>
        <p className="muted">Signed in as {access.data.email}. Every change is written to the audit log.</p>
      </div>
      <div className="tabs" role="tablist" aria-label="Admin sections">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`admin-tab-${t.id}`}
            aria-selected={t.id === tab}
            aria-controls={`admin-panel-${t.id}`}
            className="tabs__tab"
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        className="card tab-panel admin-panel"
        role="tabpanel"
        id={`admin-panel-${current.id}`}
        aria-labelledby={`admin-tab-${current.id}`}
      >
        <current.Panel />
      </div>
    </section>
  );
}
