// The texts of message search on the chat screen (catalogue "chat", section "search").
import { lookups } from "../../i18n";

/**
 * The texts of the search panel, looked up in the "chat" catalogue
 * (`web/locales/<lng>/chat.json`, section `search`) each time one is read.
 */
export const searchTexts = lookups(
  "chat",
  "search.",
  [
    "open",
    "title",
    "close",
    "placeholder",
    "field",
    "thisChat",
    "allChats",
    "scope",
    "searching",
    "none",
    "failed",
    "you",
    "results",
  ],
  {},
);
