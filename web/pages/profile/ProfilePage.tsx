import { Spinner } from "../../components/Spinner";
import { useProfile } from "../../hooks/useProfile";
import { useSessionUser } from "../../hooks/useSessionUser";
import { ProfileForm } from "./components/ProfileForm";

/** `/user/profile` (spec 2 "Profile"): loads GET /users/profile/?id=<user id> and shows the form. */
export function ProfilePage() {
  const user = useSessionUser();
  const profile = useProfile(user?.id);
  return (
    <section className="entity-page">
      <div className="page-heading">
        <h1>My Profile</h1>
      </div>
      <div className="card entity-card">
        {profile.isLoading ? (
          <div className="center-block">
            <Spinner label="Loading profile" />
          </div>
        ) : user === null || profile.data === undefined ? (
          <p className="muted center-block">Could not load the profile. Please try again later.</p>
        ) : (
          <ProfileForm key={user.id} userId={user.id} profile={profile.data} />
        )}
      </div>
    </section>
  );
}
