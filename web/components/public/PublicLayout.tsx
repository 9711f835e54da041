// The frame of every public page (product.md §2 "Shared public layout"): header, loading overlay, menu, cursor, particles, footer.
import { useIsFetching } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState } from "react";
import { Outlet } from "react-router";
import { PRODUCT_NAME } from "../../../common/constants";
import { useSessionUser } from "../../hooks/useSessionUser";
import { BrandMark } from "../BrandMark";
import { LanguageSwitch } from "../LanguageSwitch";
import { publicMenuFor, SiteMenu } from "../SiteMenu";
import { LoadingOverlay } from "./LoadingOverlay";
import { SocialLinks } from "./SocialLinks";
import "./public-layout.css";

// The particle engine is the biggest piece of the public pages: load it after the first paint.
const ParticleBackground = lazy(() => import("./ParticleBackground"));
// The custom cursor is decoration too: its code is fetched once the first frame is painted, not
// carried by the entry chunk every public page downloads (the bundle-size targets).
const CustomCursor = lazy(() => import("./CustomCursor").then((m) => ({ default: m.CustomCursor })));

/**
 * Frame of every public page (product.md §2 "Shared public layout"): a header with the loading
 * overlay (shown on first paint, while a page's code loads and while its data loads: one overlay,
 * never two) and the slide-in menu, the custom cursor (loaded after the first paint), the particle
 * background, the page, and a footer with the social links. The menu holds the language switch,
 * and SIGN IN for a visitor, or the way back into the app for a signed-in user (`publicMenuFor`).
 */
export function PublicLayout() {
  const fetching = useIsFetching();
  const user = useSessionUser();
  const [painted, setPainted] = useState(false);
  const [pageLoading, setPageLoading] = useState(false);
  useEffect(() => {
    const frame = window.requestAnimationFrame(() => setPainted(true));
    return () => window.cancelAnimationFrame(frame);
  }, []);

  return (
    <div className="public-layout">
      <Suspense fallback={null}>
        <ParticleBackground />
      </Suspense>
      {painted && (
        <Suspense fallback={null}>
          <CustomCursor />
        </Suspense>
      )}
      <header className="site-header public-header">
        <BrandMark />
        <SiteMenu items={publicMenuFor(user)} variant="drawer" extra={<LanguageSwitch />} />
        <LoadingOverlay active={!painted || fetching > 0 || pageLoading} />
      </header>
      <main className="public-main">
        <Suspense fallback={<PageLoading onChange={setPageLoading} />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="public-footer">
        <SocialLinks />
        <span className="muted">{PRODUCT_NAME}</span>
      </footer>
    </div>
  );
}

/** The page's Suspense fallback: turns the header's overlay on while the page's code loads. */
function PageLoading({ onChange }: { onChange: (loading: boolean) => void }) {
  useEffect(() => {
    onChange(true);
    return () => onChange(false);
  }, [onChange]);
  return null;
}
