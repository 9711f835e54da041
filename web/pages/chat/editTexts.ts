// Texts of swipes, regenerate, edit, delete and rewind on the chat screen, from the "chat" catalogue's `edits` section.
import i18n, { lookups } from "../../i18n";

/**
 * The texts of swipes, regenerate, edit, delete and rewind on the chat screen, looked
 * up in the "chat" catalogue (`web/locales/<lng>/chat.json`, section `edits`) each time one is
 * read, so a language switch takes effect. `replyPosition` and `replyPositionLabel`
 * take the 0-based index of the shown swipe and the number of swipes.
 */
export const editTexts = lookups(
  "chat",
  "edits.",
  [
    // Swipes ("Swipes / regenerate")
    "previousReply",
    "nextReply",
    "regenerate",
    "regenerateReply",
    "regenerateFailed",
    "swipeFailed",
    // The per-message menu ("Edit, delete and rewind")
    "messageActions",
    "edit",
    "delete",
    "rewind",
    "editMessage",
    "editReply",
    "save",
    "cancel",
    "saving",
    "editFailed",
    "deleteTitle",
    "deleteText",
    "deleteConfirm",
    "deleteFailed",
    "rewindTitle",
    "rewindText",
    "rewindConfirm",
    "rewindFailed",
  ],
  {
    replyPosition: (index: number, count: number) =>
      i18n.t("chat:edits.replyPosition", { position: index + 1, total: count }),
    replyPositionLabel: (index: number, count: number) =>
      i18n.t("chat:edits.replyPositionLabel", { position: index + 1, total: count }),
  },
);
