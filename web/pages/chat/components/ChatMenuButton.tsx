// The icon button that opens and closes a chat menu (the header's top menu, the footer's request menu).
import type { ReactNode } from "react";
import type { ChatMenu } from "../hooks/useChatMenu";

/** The icon button that opens and closes a chat menu (`menu` from useChatMenu); the icon as children. */
export function ChatMenuButton({
  menu,
  label,
  disabled,
  children,
}: {
  menu: ChatMenu;
  label: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={label}
      aria-haspopup="menu"
      aria-expanded={menu.open}
      aria-controls={menu.id}
      disabled={disabled}
      onClick={() => menu.setOpen(!menu.open)}
    >
      {children}
    </button>
  );
}
