import { Outlet } from "react-router";
import { BrandMark } from "./BrandMark";
import { SiteFooter } from "./SiteFooter";
import { SIGNED_IN_MENU, SiteMenu } from "./SiteMenu";

/** Frame of the signed-in pages (spec 2): header with the sliding menu, the page, the footer. */
export function SignedInLayout() {
  return (
    <div className="signed-in">
      <header className="site-header">
        <BrandMark />
        <SiteMenu items={SIGNED_IN_MENU} />
      </header>
      <main className="page">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
