// Content rules: spotting sexual content, refusing any pairing it with minors, and requiring an 18+ confirmation before chatting.
import { badRequest, forbidden } from "../../errors";
import { type Message, msg } from "../../i18n/messages";

/**
 * Content rules that hold on every plan: sexual content involving minors is refused,
 * in user messages, character definitions and image prompts. This is a conservative word-level
 * screen (a sexual term and a minor indicator in the same text), not a classifier: it catches the
 * plain cases without a model; a hosted moderation model can be added behind the same function.
 */
const SEXUAL = [
  "sex",
  "sexy",
  "sexual",
  "nude",
  "naked",
  "nsfw",
  "porn",
  "erotic",
  "horny",
  "orgasm",
  "lewd",
  "fuck",
  "fucking",
  "blowjob",
  "undress",
  "undressed",
  "strip",
  "genitals",
  "breasts",
  "boobs",
];
const MINOR = [
  "child",
  "children",
  "kid",
  "kids",
  "minor",
  "minors",
  "underage",
  "preteen",
  "pre-teen",
  "toddler",
  "infant",
  "loli",
  "lolita",
  "shota",
  "schoolgirl",
  "schoolboy",
  "little girl",
  "little boy",
  "middle school",
  "elementary school",
];
/** "12 years old", "12-year-old", "12 yo", "aged 12" for ages under 18. */
const AGE_UNDER_18 =
  /\b(?:(?:[1-9]|1[0-7])\s*(?:-|\s)?\s*(?:years?|yrs?)(?:\s*-?\s*old)?|(?:[1-9]|1[0-7])\s*y\/?o|aged\s+(?:[1-9]|1[0-7]))\b/i;

const wordsOf = (list: string[]) =>
  new RegExp(`\\b(?:${list.map((w) => w.replace(/[-\s]/g, "[-\\s]?")).join("|")})\\b`, "i");
const SEXUAL_RE = wordsOf(SEXUAL);
const MINOR_RE = wordsOf(MINOR);

/** Whether the text asks for sexual or explicit content (uncensored pictures are a plan attribute). */
export function mentionsSexualContent(text: string): boolean {
  return SEXUAL_RE.test(text);
}

/** Whether the text pairs sexual content with a minor. */
export function involvesMinorSexualContent(text: string): boolean {
  if (!SEXUAL_RE.test(text)) return false;
  return MINOR_RE.test(text) || AGE_UNDER_18.test(text);
}

/**
 * Refuses texts that pair sexual content with a minor.
 * @param what what the text is, a term (`msg("images.term.pictureRequest")`: "Picture request").
 * @throws AppError 400 "content_minors" naming what was refused.
 */
export function assertAllowedContent(what: Message, ...texts: string[]): void {
  if (texts.some((t) => involvesMinorSexualContent(t))) {
    throw badRequest(msg("safety.refusedSexualContentInvolvingMinors", { what }), "content_minors");
  }
}

/** The message the SPA shows (and answers with a confirmation dialog) until the person confirms. */
export const AGE_UNCONFIRMED_MESSAGE = msg("safety.confirmThat18OlderChat");

/**
 * Chat is for adults: an account chats only after the person confirmed being 18 or older
 * (stored in users.adult_confirmed_at by POST /api/users/confirm-age).
 * @throws AppError 403 "age_unconfirmed".
 */
export function assertAdultConfirmed(user: { adult_confirmed_at: number | null }): void {
  if (!user.adult_confirmed_at) throw forbidden(AGE_UNCONFIRMED_MESSAGE, "age_unconfirmed");
}
