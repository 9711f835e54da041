import { useEffect, useId, useRef } from "react";
import { NavLink, useLocation } from "react-router";
import { usePopup } from "../hooks/usePopup";

/** One entry of a site menu: the label as the spec spells it and the in-app path. */
export interface MenuItem {
  label: string;
  to: string;
}

/** spec 2 "Signed-in menu and footer": the signed-in menu's entries. */
export const SIGNED_IN_MENU: MenuItem[] = [
  { label: "HOME", to: "/" },
  { label: "MY PROFILE", to: "/user/profile" },
  { label: "CHARACTERS", to: "/characters/list" },
  { label: "CHANGE PASSWORD", to: "/user/change-password" },
  { label: "F.A.Q", to: "/faq" },
  { label: "LOGOUT", to: "/logout" },
];

/** Ours (issue 16): the entry an admin gets in the signed-in menu, before LOGOUT. */
export const ADMIN_MENU_ITEM: MenuItem = { label: "ADMIN", to: "/admin" };

/** spec 2 "Shared public layout": the public menu's entries. */
export const PUBLIC_MENU: MenuItem[] = [
  { label: "HOME", to: "/" },
  { label: "CHAT", to: "/start-chat" },
  { label: "PRICING", to: "/pricing" },
  { label: "F.A.Q", to: "/faq" },
  { label: "CONTACT", to: "/contact" },
  { label: "TERMS OF SERVICE", to: "/terms" },
];

interface SiteMenuProps {
  items: MenuItem[];
  /** `top` slides down under the header (signed-in area); `drawer` slides in from the right (public pages). */
  variant?: "top" | "drawer";
}

/**
 * The sliding site menu (spec 2; spec 9: it slides open and closed over 0.3 s). On the
 * preset selection page the F.A.Q entry is left out (spec 2). A new page, Escape or a click
 * outside closes it.
 */
export function SiteMenu({ items, variant = "top" }: SiteMenuProps) {
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
        aria-label={open ? "Close menu" : "Open menu"}
        onClick={toggle}
      >
        <span />
        <span />
        <span />
      </button>
      <nav id={menuId} className={panelClass} aria-label="Main" inert={!open}>
        <ul>
          {shown.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end onClick={close}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
