// The admin console (/admin): its tabs (plans, presets, users, contact, free, audit, models, backups), shown once the server confirms the role.
import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation } from "react-router";
import { Spinner } from "../../components/Spinner";
import { useSessionUser } from "../../hooks/useSessionUser";
import { loadNamespaces } from "../../i18n";
import { AuditSection } from "./components/AuditSection";
import { BackupsSection } from "./components/BackupsSection";
import { ContactSection } from "./components/ContactSection";
import { FreeSubscriptionsSection } from "./components/FreeSubscriptionsSection";
import { PlansSection } from "./components/PlansSection";
import { PresetsSection } from "./components/PresetsSection";
import { SiteSection } from "./components/SiteSection";
import { UsersSection } from "./components/UsersSection";
import { useAdminAccess } from "./hooks/useAdminAccess";
import "./admin.css";

/** The Models section: its chunk and its "models" catalogue are fetched when the tab first opens. */
const ModelsSection = lazy(() =>
  Promise.all([import("./components/ModelsSection"), loadNamespaces(["models"])]).then(([module]) => ({
    default: module.ModelsSection,
  })),
);

function ModelsPanel() {
  const { t } = useTranslation("admin");
  return (
    <Suspense fallback={<Spinner label={t("page.loadingModels")} />}>
      <ModelsSection />
    </Suspense>
  );
}

/** The sections; each tab's label is `page.tabs.<id>` in the "admin" catalogue. */
const TABS = [
  { id: "plans", Panel: PlansSection },
  { id: "presets", Panel: PresetsSection },
  { id: "users", Panel: UsersSection },
  { id: "contact", Panel: ContactSection },
  { id: "free", Panel: FreeSubscriptionsSection },
  { id: "audit", Panel: AuditSection },
  { id: "models", Panel: ModelsPanel },
  { id: "backups", Panel: BackupsSection },
  { id: "site", Panel: SiteSection },
] as const;

type TabId = (typeof TABS)[number]["id"];

/** The tab a link's hash opens: `/admin#models` (the chat's "no model connected" notice) opens Models. */
function tabOfHash(hash: string): TabId | null {
  return hash === "#models" ? "models" : null;
}

/**
 * `/admin`: the admin console. A session user who is not an admin (`isAdmin`, set by
 * the server) is sent to /forbidden at once; for an admin nothing renders until the server
 * confirms the role (GET /admin/me), and a refusal also sends to /forbidden. Every call is
 * checked on the server again.
 */
export function AdminPage() {
  const { t } = useTranslation("admin");
  const admin = useSessionUser()?.isAdmin === true;
  const access = useAdminAccess(admin);
  const { hash } = useLocation();
  const [tab, setTab] = useState<TabId>(() => tabOfHash(hash) ?? "plans");
  useEffect(() => {
    const linked = tabOfHash(hash);
    if (linked !== null) setTab(linked);
  }, [hash]);
  if (!admin || access.isError) return <Navigate to="/forbidden" replace />;
  if (access.data === undefined) {
    return (
      <div className="center-block">
        <Spinner label={t("page.checking")} />
      </div>
    );
  }
  const current = TABS.find((item) => item.id === tab) ?? TABS[0];
  return (
    <section className="entity-page admin-page">
      <div className="page-heading">
        <h1>{t("page.title")}</h1>
        <p className="muted">{t("page.signedInAs", { email: access.data.email })}</p>
      </div>
      <div className="tabs" role="tablist" aria-label={t("page.sections")}>
        {TABS.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`admin-tab-${tab.id}`}
            aria-selected={tab.id === current.id}
            aria-controls={`admin-panel-${tab.id}`}
            className="tabs__tab"
            onClick={() => setTab(tab.id)}
          >
            {t(`page.tabs.${tab.id}`)}
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
