// The signed-in footer (product.md §2): product name, current year and app version.
import { APP_VERSION, PRODUCT_NAME } from "../../common/constants";

/** The signed-in footer (product.md §2): product name, current year and app version. */
export function SiteFooter() {
  return (
    <footer className="site-footer">
      <span>
        © {new Date().getFullYear()} {PRODUCT_NAME}
      </span>
      <span>v{APP_VERSION}</span>
    </footer>
  );
}
