import { type Popup, usePopup } from "../../../hooks/usePopup";

/** A chat menu's state: {@link usePopup}'s, and `pick` for its entries. */
export interface ChatMenu extends Popup {
  /** An entry's click handler: closes the menu, then runs `action`. */
  pick: (action: () => void) => () => void;
}

/** The chat header's menu and the footer's request menu (spec 2): a popup whose entries close it. */
export function useChatMenu(): ChatMenu {
  const popup = usePopup();
  return {
    ...popup,
    pick: (action) => () => {
      popup.close();
      action();
    },
  };
}
