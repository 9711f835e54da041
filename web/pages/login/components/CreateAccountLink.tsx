// The login page's "Create an account" link, shown when anyone may sign up (REGISTRATION=open).
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useRegistrationMode } from "../../../hooks/useRegistrationMode";

/** "Create an account" (to /signup) when the server's sign-up is open; nothing otherwise. */
export function CreateAccountLink() {
  const { t } = useTranslation("auth");
  const { mode } = useRegistrationMode();
  if (mode !== "open") return null;
  return (
    <p className="login-card__signup">
      <Link to="/signup">{t("signIn.createAccount")}</Link>
    </p>
  );
}
