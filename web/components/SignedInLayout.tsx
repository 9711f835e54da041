// The signed-in pages' frame (product.md §2): the header with the sliding menu, the page, the footer, dark mode.
import { Suspense } from "react";
import { Outlet } from "react-router";
import { useDarkMode } from "../hooks/useDarkMode";
import { useSessionUser } from "../hooks/useSessionUser";
import { BrandMark } from "./BrandMark";
import { LanguageSwitch } from "./LanguageSwitch";
import { SiteFooter } from "./SiteFooter";
import { SiteMenu, signedInMenuFor } from "./SiteMenu";
import { Spinner } from "./Spinner";
import "../styles/signed-in.css";
import { useTranslation } from "react-i18next";

/**
 * Frame of the signed-in pages (product.md §2): header with the sliding menu, the page, the footer.
 * Pages loaded on demand show a spinner inside the frame while they load. The chat setting
 * 'dark mode' applies here too. An admin (the session user's `isAdmin`, which the server sets from
 * the account's role) gets an ADMIN entry in the menu; nothing is asked of the admin API here.
 */
export function SignedInLayout() {
  useDarkMode();
  const { t } = useTranslation("common");
  const items = signedInMenuFor(useSessionUser());
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
