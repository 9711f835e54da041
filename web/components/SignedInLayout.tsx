import { useQuery } from "@tanstack/react-query";
import { Suspense } from "react";
import { Outlet } from "react-router";
import { getAdminMe } from "../api/admin";
import { useDarkMode } from "../hooks/useDarkMode";
import { useSessionUser } from "../hooks/useSessionUser";
import { BrandMark } from "./BrandMark";
import { LanguageSwitch } from "./LanguageSwitch";
import { SiteFooter } from "./SiteFooter";
import { ADMIN_MENU_ITEM, SIGNED_IN_MENU, SiteMenu } from "./SiteMenu";
import { Spinner } from "./Spinner";
import "../styles/signed-in.css";
import { useTranslation } from "react-i18next";

/**
 * Frame of the signed-in pages (spec 2): header with the sliding menu, the page, the footer.
 * Pages loaded on demand show a spinner inside the frame while they load. The chat setting
 * 'dark mode' applies here too. An admin (as GET /admin/me says; the role is not in the session
 * user) gets an ADMIN entry in the menu (issue 16); anyone else's refusal is silent.
 */
export function SignedInLayout() {
  useDarkMode();
  const { t } = useTranslation("common");
  const userId = useSessionUser()?.id ?? "";
  const admin = useQuery({
    queryKey: ["admin", "me", "menu", userId],
    queryFn: getAdminMe,
    enabled: userId !== "",
    retry: false,
    staleTime: 5 * 60_000,
    meta: { silent: true },
  });
  const items = admin.isSuccess
    ? [...SIGNED_IN_MENU.slice(0, -1), ADMIN_MENU_ITEM, ...SIGNED_IN_MENU.slice(-1)]
    : SIGNED_IN_MENU;
  return (
    <div className="signed-in">
      <header className="site-header">
        <BrandMark />
        <SiteMenu items={items} extra={<LanguageSwitch />} />
      </header>
      <main className="page">
        <Suspense
          fallback={
            <div className="center-block">
              <Spinner label={t("loading.page")} />
            </div>
          }
        >
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
    </div>
  );
}
