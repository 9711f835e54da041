// The business constants shared by server and SPA (product.md §9): token lifetimes, field limits, page sizes, quotas, photo types, toasts and languages.
/**
 * The product's business constants, defined once for the server and the SPA.
 * Every value cites the section of docs/product.md it comes from.
 */

/** product.md §3: "App version: 1.0.28". Also the `version` of /meta.json. */
export const APP_VERSION = "1.0.28";
/** product.md §9: token lifetime 1 hour. Milliseconds. */
export const TOKEN_LIFETIME_MS = 3_600_000;
/** product.md §9: refresh the token when under 5 minutes remain. Milliseconds. */
export const TOKEN_REFRESH_MARGIN_MS = 300_000;
/** product.md §9: the token expiry is checked every 3 minutes. Milliseconds. */
export const TOKEN_CHECK_INTERVAL_MS = 180_000;
/** product.md §9: local storage keys. */
export const STORAGE_KEY_TOKEN = "token";
export const STORAGE_KEY_USER = "user";
/** product.md §5, 9: a chat message is at most 150 characters after trimming. */
export const MESSAGE_MAX_LENGTH = 150;
/** Ours: `chat/message` `pname`, the name the user goes by in one reply, at most this many characters. */
export const SENDER_NAME_MAX_LENGTH = 50;
/** Ours: `chat/message` `ptext`, the user's words about themself for one reply, at most this many characters. */
export const SENDER_ABOUT_MAX_LENGTH = 300;
/** product.md §5, 9: character card field limits (characters). */
export const BACKSTORY_MAX_LENGTH = 2000;
export const GREETING_MAX_LENGTH = 800;
export const APPEARANCE_MAX_LENGTH = 100;
/** product.md §9: backstory truncated to 50 characters in lists. */
export const BACKSTORY_PREVIEW_LENGTH = 50;
/** product.md §9: history page size 10, initial offset 0. */
export const HISTORY_PAGE_SIZE = 10;
/** product.md §6, 9: a group chat holds at most 4 members. */
export const GROUP_MAX_MEMBERS = 4;
/** product.md §1, 9: free subscribers get 15 chat messages per day. */
export const FREE_DAILY_MESSAGES = 15;
/** product.md §9: the add-on bought when the monthly limit is reached: 100 messages for $1.99 (cents). */
export const ADDON_MESSAGES = 100;
export const ADDON_PRICE_CENTS = 199;
/**
 * Ours: one reply can be continued at most this many times ("Continue" runs the model
 * again on the same entry); each continuation counts as one message of the quota.
 */
export const CONTINUE_MAX_PER_REPLY = 3;
/** Ours ("Swipes"): the most replies one entry keeps (regenerated ones and greetings). */
export const REPLY_SWIPES_MAX = 10;
/** Ours ("Edit"): the longest reply text a user can write into a reply, characters. */
export const REPLY_EDIT_MAX_LENGTH = 4000;
/**
 * Ours ("Import a SillyTavern chat"): the largest chat file imported, bytes (20 MB). A larger
 * upload is refused whole (413) before anything is stored.
 */
export const CHAT_IMPORT_MAX_BYTES = 20 * 1024 * 1024;
/** Ours ("Import a SillyTavern chat"): the most message lines one imported chat file may hold. */
export const CHAT_IMPORT_MAX_MESSAGES = 20_000;
/**
 * Ours ("Import a SillyTavern chat"): the longest imported message (or swipe), characters.
 * Imported messages are not held to MESSAGE_MAX_LENGTH, the rule of typed messages: a chat
 * written elsewhere is kept as it was said.
 */
export const CHAT_IMPORT_MESSAGE_MAX_LENGTH = 20_000;
/** product.md §4: marker of the automatic first greeting; never shown as a user message. */
export const FIRST_MESSAGE_MARKER = "##first-message##";
/** product.md §3: the fallback picture. */
export const DEFAULT_PICTURE = "user.jpg";
/** product.md §9: delay between split reply messages. Milliseconds. */
export const SPLIT_MESSAGE_DELAY_MS = 1000;
/** product.md §9: scroll-to-bottom button appears beyond this distance from the bottom. Pixels. */
export const SCROLL_BUTTON_THRESHOLD_PX = 800;
/** product.md §8: toast durations. Milliseconds. */
export const TOAST_SIGNED_IN_MS = 2000;
export const TOAST_PUBLIC_MS = 3000;
export const TOAST_LOGIN_SUCCESS_MS = 4000;
/** product.md §8: confirm and cancel button colours. */
export const CONFIRM_COLOR = "#c70039";
export const CANCEL_COLOR = "#aaa";
/** Product name shown in the footer and the title. */
export const PRODUCT_NAME = "Companion";

/** product.md §7, 9: picture requests use type 1 (portrait) or 2 (landscape). */
export const PHOTO_TYPE_PORTRAIT = 1;
export const PHOTO_TYPE_LANDSCAPE = 2;
export type PhotoType = typeof PHOTO_TYPE_PORTRAIT | typeof PHOTO_TYPE_LANDSCAPE;
/** PHOTO_CAPTIONS that ask for a portrait. */
const PORTRAIT_CAPTIONS = [
  "A selfie with your best smile",
  "In your favourite outfit",
  "Having coffee in the morning",
  "Dressed up for a night out",
  "Relaxing at home",
  "Working out at the gym",
];
/** PHOTO_CAPTIONS that ask for a landscape. */
const LANDSCAPE_CAPTIONS = [
  "At the beach",
  "Walking in the park",
  "Cooking dinner in the kitchen",
  "Watching the sunset",
];
/**
 * product.md §9: "10 canned photo captions" offered in the request menu, each sent as the request's
 * message with its type (the spec does not list their words; these are ours): the portraits, then
 * the landscapes.
 */
export const PHOTO_CAPTIONS: ReadonlyArray<{ text: string; type: PhotoType }> = [
  ...PORTRAIT_CAPTIONS.map((text) => ({ text, type: PHOTO_TYPE_PORTRAIT as PhotoType })),
  ...LANDSCAPE_CAPTIONS.map((text) => ({ text, type: PHOTO_TYPE_LANDSCAPE as PhotoType })),
];
/** product.md §5: chat attachments accept these file types. */
export const PHOTO_ACCEPT = ".jpg,.jpeg,.png";
/** product.md §9: the camera asks for 1280x720, front camera first ('user'), switchable to 'environment'. */
export const CAMERA_WIDTH = 1280;
export const CAMERA_HEIGHT = 720;
/** product.md §9: the image viewer zooms from scale 1 to 2. */
export const IMAGE_VIEWER_MIN_SCALE = 1;
export const IMAGE_VIEWER_MAX_SCALE = 2;

/** A price in cents as the spec writes it, in dollars with two decimals ("1.99"; product.md §3 `price`). */
export function dollars(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** Bounds of a stored or imported book (parsed defensively on the server; the character form keeps to them). */
export const LOREBOOK_LIMITS = {
  entries: 200,
  contentChars: 2000,
  keysPerEntry: 20,
  keyChars: 100,
  nameChars: 200,
  /** The book as JSON text, characters. */
  jsonChars: 600_000,
} as const;

/** Ours: the UI languages (the seeded characters' languages), English first. */
export const UI_LANGUAGES = ["en", "es", "fr", "de", "it", "pt"] as const;
