// Which paths open the chat screen and which the signed-in frame: read before the app's code arrives.

/** Paths of the pages inside the signed-in frame (`SignedInLayout`, web/App.tsx). */
export const SIGNED_IN_FRAME = /^\/(characters|user)\/|^\/admin$/i;

/** Whether `pathname` opens the chat screen (product.md §2: `/chat`, `/character-select/:id`). */
export function isChatPath(pathname: string): boolean {
  return pathname === "/chat" || pathname.startsWith("/character-select/");
}
