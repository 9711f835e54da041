// The site menus (product.md §2): the public and signed-in entries, the admin's entry, and the sliding menu itself.
import { type ReactNode, useEffect, useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { NavLink, useLocation } from "react-router";
import { usePopup } from "../hooks/usePopup";

/**
 * One entry of a site menu: the label as the spec spells it (English), its key in the "common"
 * catalogue's `menu` (shown translated) and the in-app path.
 */
export interface MenuItem {
  label: string;
  key: string;
  to: string;
}

/** Every entry of the menus by its key in the "common" catalogue's `menu`: the label as the spec spells it, and the path. */
const ENTRIES = {
  home: ["HOME", "/"],
  profile: ["MY PROFILE", "/user/profile"],
  characters: ["CHARACTERS", "/characters/list"],
  changePassword: ["CHANGE PASSWORD", "/user/change-password"],
  faq: ["F.A.Q", "/faq"],
  logout: ["LOGOUT", "/logout"],
  admin: ["ADMIN", "/admin"],
  chat: ["CHAT", "/start-chat"],
  pricing: ["PRICING", "/pricing"],
  contact: ["CONTACT", "/contact"],
  terms: ["TERMS OF SERVICE", "/terms"],
  signIn: ["SIGN IN", "/login"],
} as const satisfies Record<string, readonly [label: string, to: string]>;

/** The menu entry of `key`. */
function entry(key: keyof typeof ENTRIES): MenuItem {
  const [label, to] = ENTRIES[key];
  return { label, key, to };
}

/** The menu entries of `keys`, in that order. */
function menu(...keys: Array<keyof typeof ENTRIES>): MenuItem[] {
  return keys.map(entry);
}

/** product.md §2 "Signed-in menu and footer": the signed-in menu's entries. */
export const SIGNED_IN_MENU = menu("home", "profile", "characters", "changePassword", "faq", "logout");

/** Ours: the entry an admin gets in the signed-in menu, before LOGOUT. */
export const ADMIN_MENU_ITEM = entry("admin");

/**
 * The signed-in menu for the stored session user: an admin (the session user's `isAdmin`, set by
 * the server from the account's role) gets ADMIN before LOGOUT; anyone else, or a session stored
 * before the flag existed, the plain menu.
 */
export function signedInMenuFor(user: { isAdmin?: boolean } | null): MenuItem[] {
  return user?.isAdmin === true
    ? [...SIGNED_IN_MENU.slice(0, -1), ADMIN_MENU_ITEM, ...SIGNED_IN_MENU.slice(-1)]
    : SIGNED_IN_MENU;
}

/** product.md §2 "Shared public layout": the public menu's entries. */
export const PUBLIC_MENU = menu("home", "chat", "pricing", "faq", "contact", "terms");

/**
 * The public menu for the stored session user: signed out, SIGN IN after the public entries;
 * signed in, the way back into the app instead: CHARACTERS, ADMIN for an admin (`isAdmin`), LOGOUT.
 */
export function publicMenuFor(user: { isAdmin?: boolean } | null): MenuItem[] {
  if (user === null) return [...PUBLIC_MENU, entry("signIn")];
  const admin = user.isAdmin === true ? [ADMIN_MENU_ITEM] : [];
  return [...PUBLIC_MENU, entry("characters"), ...admin, entry("logout")];
}

interface SiteMenuProps {
  items: MenuItem[];
  /** `top` slides down under the header (signed-in area); `drawer` slides in from the right (public pages). */
  variant?: "top" | "drawer";
  /** Shown under the entries, e.g. the language switch. */
  extra?: ReactNode;
}

/**
 * The sliding site menu (product.md §2; product.md §9: it slides open and closed over 0.3 s). On the
 * preset selection page the F.A.Q entry is left out (product.md §2). A new page, Escape or a click
 * outside closes it.
 */
export function SiteMenu({ items, variant = "top", extra }: SiteMenuProps) {
  const { t } = useTranslation("common");
  const { open, setOpen, root } = usePopup();
  const menuId = useId();
  const close = () => setOpen(false);
  const { pathname } = useLocation();
  /** The address the menu was opened on: a page that arrives later for it keeps it open. */
  const openedFor = useRef("");
  const shown = pathname === "/characters/selection" ? items.filter((item) => item.to !== "/faq") : items;

  // A new page closes the menu (back, forward, a link elsewhere). Navigations render as transitions:
  // a page loaded on demand commits after the address changed, so a menu opened in between, on
  // the new address, stays open.
  useEffect(() => {
    if (pathname !== openedFor.current) setOpen(false);
  }, [pathname, setOpen]);

  const toggle = () => {
    if (!open) openedFor.current = window.location.pathname;
    setOpen(!open);
  };

  const panelClass = `site-menu__panel site-menu__panel--${variant}${open ? " site-menu__panel--open" : ""}`;
  return (
    <div className="site-menu" ref={root}>
      <button
        type="button"
        className={open ? "menu-toggle menu-toggle--open" : "menu-toggle"}
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={open ? t("menu.close") : t("menu.open")}
        onClick={toggle}
      >
        <span />
        <span />
        <span />
      </button>
      <nav id={menuId} className={panelClass} aria-label={t("menu.main")} inert={!open}>
        <ul>
          {shown.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end onClick={close}>
                {t(`menu.${item.key}`, { defaultValue: item.label })}
              </NavLink>
            </li>
          ))}
        </ul>
        {extra}
      </nav>
    </div>
  );
}
