// The logout page (/logout, product.md §2): logs out, then goes to /.
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Spinner } from "../../components/Spinner";
import { useLogout } from "./hooks/useLogout";

/** `/logout` (product.md §2): logs out, then the logout itself goes to `/`. */
export function LogoutPage() {
  const { t } = useTranslation("auth");
  const logout = useLogout();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void logout();
  }, [logout]);
  return (
    <div className="center-screen">
      <Spinner label={t("logout.busy")} />
    </div>
  );
}
