import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { Spinner } from "../../components/Spinner";
import { useSessionUser } from "../../hooks/useSessionUser";
import { DeleteAccountPanel } from "./components/DeleteAccountPanel";
import { DevicesPanel } from "./components/DevicesPanel";
import { ExportPanel } from "./components/ExportPanel";
import { PlanPanel } from "./components/PlanPanel";
import { ProfileForm } from "./components/ProfileForm";
import { useProfile } from "./hooks/useProfile";
import { useSessionUserRefresh } from "./hooks/useSessionUserRefresh";
import "./profile.css";
import { EntityPage } from "../../components/EntityForm";

/**
 * `/user/profile` (spec 2 "Profile"): loads GET /users/profile/?id=<user id> and shows the form,
 * then the plan panel (issue 9: add-on, manage subscription), the signed-in devices (issue 13)
 * and "Delete my account" (issue 18).
 */
export function ProfilePage() {
  const { t } = useTranslation("profile");
  const user = useSessionUser();
  // Back from a payment page: the new plan's flags are fetched at once (issue 9).
  const [search] = useSearchParams();
  useSessionUserRefresh(search.get("checkout") === "success");
  const profile = useProfile(user?.id);
  return (
    <EntityPage title={t("page.title")}>
      <div className="card entity-card">
        {profile.isLoading ? (
          <div className="center-block">
            <Spinner label={t("page.loading")} />
          </div>
        ) : user === null || profile.data === undefined ? (
          <p className="muted center-block">{t("page.loadFailed")}</p>
        ) : (
          <ProfileForm key={user.id} userId={user.id} profile={profile.data} />
        )}
      </div>
      {profile.data !== undefined && (
        <div className="card entity-card">
          <PlanPanel profile={profile.data} />
        </div>
      )}
      {/* A guest's session user carries no e-mail (spec 3); guests get no devices (issue 13). */}
      {user !== null && <DevicesPanel guest={user.userEmail === ""} />}
      {user !== null && <ExportPanel />}
      {user !== null && <DeleteAccountPanel guest={user.userEmail === ""} userName={user.userName} />}
    </EntityPage>
  );
}
