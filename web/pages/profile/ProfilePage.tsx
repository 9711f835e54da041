// The Profile page (/user/profile, product.md §2 "Profile"): the form, the plan panel, devices, data export and account erasure.
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
 * `/user/profile` (product.md §2 "Profile"): loads GET /users/profile/?id=<user id> and shows the form,
 * then the plan panel (add-on, manage subscription), the signed-in devices
 * and "Delete my account".
 */
export function ProfilePage() {
  const { t } = useTranslation("profile");
  const user = useSessionUser();
  // Back from a payment page: the new plan's flags are fetched at once.
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
      {/* A guest's session user carries no e-mail (product.md §3); guests get no devices. */}
      {user !== null && <DevicesPanel guest={user.userEmail === ""} />}
      {user !== null && <ExportPanel />}
      {user !== null && <DeleteAccountPanel guest={user.userEmail === ""} userName={user.userName} />}
    </EntityPage>
  );
}
