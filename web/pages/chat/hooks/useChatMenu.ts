// A chat menu's state (product.md §2): the header's menu and the footer's request menu, a popup whose entries close it.
import { useId } from "react";
import { type Popup, usePopup } from "../../../hooks/usePopup";

/** A chat menu's state: {@link usePopup}'s, its `id`, and `pick` for its entries. */
export interface ChatMenu extends Popup {
  /** For the menu's `id` and its button's `aria-controls`. */
  id: string;
  /** An entry's click handler: closes the menu, then runs `action`. */
  pick: (action: () => void) => () => void;
  /** For the menu element: its id, the sliding dropdown's classes, inert while closed. */
  list: { id: string; className: string; inert: boolean };
}

/** The chat header's menu and the footer's request menu (product.md §2): a popup whose entries close it. */
export function useChatMenu(): ChatMenu {
  const popup = usePopup();
  const id = useId();
  return {
    ...popup,
    id,
    list: {
      id,
      className: popup.open
        ? "dropdown__menu dropdown__menu--slide open"
        : "dropdown__menu dropdown__menu--slide",
      inert: !popup.open,
    },
    pick: (action) => () => {
      popup.setOpen(false);
      action();
    },
  };
}
