import { Suspense } from "react";
import { Outlet } from "react-router";
import { useDarkMode } from "../hooks/useDarkMode";
import { BrandMark } from "./BrandMark";
import { SiteFooter } from "./SiteFooter";
import { SIGNED_IN_MENU, SiteMenu } from "./SiteMenu";
import { Spinner } from "./Spinner";
import "../styles/signed-in.css";

/**
 * Frame of the signed-in pages (spec 2): header with the sliding menu, the page, the footer.
 * Pages loaded on demand show a spinner inside the frame while they load. The chat setting
 * 'dark mode' applies here too.
 */
export function SignedInLayout() {
  useDarkMode();
  return (
    <div className="signed-in">
      <header className="site-header">
        <BrandMark />
        <SiteMenu items={SIGNED_IN_MENU} />
      </header>
      <main className="page">
        <Suspense
          fallback={
            <div className="center-block">
              <Spinner label="Loading page" />
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
