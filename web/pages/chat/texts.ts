// The chat screen's user-facing texts (product.md §2, §4, §8) from the "chat" catalogue, and the header's status texts.
import i18n, { lookups } from "../../i18n";

/**
 * Every user-facing text of the chat screen in one place, looked up in the "chat"
 * catalogue (`web/locales/<lng>/chat.json`, section `main`) each time it is read, so
 * a language switch takes effect. The English texts quoted by the spec keep the spec's wording
 * (sections 2, 4, 8).
 */
export const chatTexts = lookups(
  "chat",
  "main.",
  [
    "loadingChat",
    "ageTitle",
    "ageText",
    "ageConfirm",
    "ageLeave",
    "unavailableTitle",
    "unavailableText",
    "online",
    "sidebar",
    "toggleSidebar",
    "closeSidebar",
    "currentMembers",
    "notInGroup",
    "characters",
    "noOtherCharacters",
    "chatOff",
    "serverUnreachable",
    "chatMenu",
    "close",
    "newChat",
    "startGroup",
    "changeCharacter",
    "settings",
    "updateProfile",
    "changePassword",
    "faq",
    "logout",
    "newChatTitle",
    "newChatText",
    "newChatConfirm",
    "cancel",
    "messages",
    "yourMessage",
    "character",
    "sending",
    "failed",
    "retry",
    "stop",
    "continueReply",
    "typing",
    "loadingMessages",
    "loadingEarlier",
    "scrollToBottom",
    "failedToSend",
    "failedToReply",
    "typeMessage",
    "characterCount",
    "send",
    "microphone",
    "emoji",
    "emojiPicker",
    "searchEmoji",
    "searchHint",
    "noEmojiFound",
    "emojiLoading",
    "emojiFailed",
    "noColorEmoji",
    "settingsTitle",
    "muteVoice",
    "darkMode",
    "bluetooth",
    "voiceChat",
    "screenWake",
    "notifications",
    "silenceDuration",
    "aboutYou",
    "senderName",
    "senderNameHint",
    "senderAbout",
    "senderAboutHint",
    "save",
    "settingsSaved",
    "screenWakeUnsupported",
    "memories",
    "noMemories",
    "loadingMemories",
    "delete",
    "memoryDeleted",
    "writeFirstNote",
    "writeFirstFailed",
    "recall",
    "recallHint",
    "recallFailed",
    "importTitle",
    "importFile",
    "importHint",
    "importConfirmTitle",
    "importConfirm",
    "importFailed",
  ] as const,
  {
    groupFull: (max: number) => i18n.t("chat:main.groupFull", { max }),
    removeMember: (name: string) => i18n.t("chat:main.removeMember", { name }),
    addMember: (name: string) => i18n.t("chat:main.addMember", { name }),
    chatWith: (name: string) => i18n.t("chat:main.chatWith", { name }),
    showPhoto: (name: string) => i18n.t("chat:main.showPhoto", { name }),
    photoOf: (name: string) => i18n.t("chat:main.photoOf", { name }),
    replyFrom: (name: string) => i18n.t("chat:main.replyFrom", { name }),
    isTyping: (name: string) => i18n.t("chat:main.isTyping", { name }),
    seconds: (count: number) => i18n.t("chat:main.seconds", { value: count }),
    deleteMemory: (fact: string) => i18n.t("chat:main.deleteMemory", { fact }),
    writeFirst: (name: string) => i18n.t("chat:main.writeFirst", { name }),
    /** Why the character cannot write first: no language model is ready. */
    writeFirstNoModel: (name: string) => i18n.t("chat:main.writeFirstNoModel", { name }),
    /** The confirmation of an import: the chosen file's name. */
    importConfirmText: (file: string) => i18n.t("chat:main.importConfirmText", { file }),
    /** A chat file over the import's limit, in MB. */
    importTooLarge: (max: number) => i18n.t("chat:main.importTooLarge", { max }),
    /** A header status (product.md §3) in the current language. */
    status: (status: ChatStatus) => i18n.t(`chat:status.${STATUS_KEYS[status]}`),
  },
);

/**
 * product.md §3 chat status texts shown in the header ('unavailable' is ours: no model ready); 'downloading...' while a picture of the chat is
 * still being made (chatHistoryImageLoading 1). The values are the English texts; the header
 * shows `chatTexts.status(status)`.
 */
export type ChatStatus = "online" | "away" | "replying..." | "sending..." | "downloading..." | "unavailable";

/** The catalogue key (`chat:status.<key>`) of each status. */
const STATUS_KEYS: Record<ChatStatus, string> = {
  online: "online",
  away: "away",
  "replying...": "replying",
  "sending...": "sending",
  "downloading...": "downloading",
  unavailable: "unavailable",
};

/**
 * The status the chat header shows: `unavailable` instead of "online" (or "away") while the
 * server says the chat cannot answer (`chatEnabled` false: no language model ready), so the
 * header does not claim a character that cannot reply is online; 'downloading...' while a
 * picture of the chat is being made; otherwise the sender's status. `chatEnabled` is undefined
 * until the capabilities have loaded.
 */
export function headerStatus(
  senderStatus: ChatStatus,
  pictureLoading: boolean,
  chatEnabled: boolean | undefined,
): ChatStatus {
  if (chatEnabled === false && (senderStatus === "online" || senderStatus === "away")) return "unavailable";
  return senderStatus === "online" && pictureLoading ? "downloading..." : senderStatus;
}
