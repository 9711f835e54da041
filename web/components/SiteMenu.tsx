import { useEffect, useId, useState } from "react";
import { NavLink, useLocation } from "react-router";

interface MenuItem {
  label: string;
  to: string;
}

const ITEMS: MenuItem[] = [
  { label: "HOME", to: "/" },
  { label: "MY PROFILE", to: "/user/profile" },
  { label: "CHARACTERS", to: "/characters/list" },
  { label: "CHANGE PASSWORD", to: "/user/change-password" },
  { label: "F.A.Q", to: "/faq" },
  { label: "LOGOUT", to: "/logout" },
];

/**
 * The signed-in sliding top menu (spec 2): HOME, MY PROFILE, CHARACTERS, CHANGE PASSWORD,
 * F.A.Q, LOGOUT; slides in 0.3 s (spec 9); F.A.Q is left out on the preset selection page.
 */
export function SiteMenu() {
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  const menuId = useId();
  const items = pathname === "/characters/selection" ? ITEMS.filter((item) => item.to !== "/faq") : ITEMS;

  // A new page closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger
  useEffect(() => setOpen(false), [pathname]);

  return (
    <div className="site-menu">
      <button
        type="button"
        className={open ? "menu-toggle menu-toggle--open" : "menu-toggle"}
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={open ? "Close menu" : "Open menu"}
        onClick={() => setOpen((value) => !value)}
      >
        <span />
        <span />
        <span />
      </button>
      <nav
        id={menuId}
        className={open ? "site-menu__panel site-menu__panel--open" : "site-menu__panel"}
        aria-label="Main"
        inert={!open}
      >
        <ul>
          {items.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end onClick={() => setOpen(false)}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
