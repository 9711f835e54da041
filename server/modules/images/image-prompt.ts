// The image prompt of a character's picture: its seed and size, the scene asked for, and spotting a picture request in a message or reply.
import { createHash } from "node:crypto";
import {
  PHOTO_CAPTIONS,
  PHOTO_TYPE_LANDSCAPE,
  PHOTO_TYPE_PORTRAIT,
  type PhotoType,
} from "../../../common/constants";

/** The character fields a picture is drawn from (product.md §3 "Character (detail)"). */
export interface PictureSubject {
  id: string;
  name: string;
  /** '0' female, '1' male. */
  sex: string;
  /** Optional, at most 100 characters (product.md §5). */
  appearance: string;
}

/**
 * The seed of a character's pictures: the first 31 bits of sha256(character id), so the same
 * character gets the same face in every picture and no two characters share one by design.
 */
export function seedFor(characterId: string): number {
  return createHash("sha256").update(characterId).digest().readUInt32BE(0) & 0x7fffffff;
}

/** Pixel size of a picture type: 1 portrait, 2 landscape (product.md §7, 9), from IMAGE_PORTRAIT/LANDSCAPE_SIZE. */
export function sizeFor(
  type: PhotoType,
  sizes: { portrait: { width: number; height: number }; landscape: { width: number; height: number } },
): { width: number; height: number } {
  return type === PHOTO_TYPE_LANDSCAPE ? sizes.landscape : sizes.portrait;
}

const NEGATIVE_BASE =
  "lowres, blurry, bad anatomy, deformed face, extra fingers, extra limbs, watermark, text, signature, child, minor";
const NEGATIVE_CENSORED = "nsfw, nude, naked, explicit, lingerie";

/**
 * The image prompt: the character (name, sex, appearance) in the scene the user asked for, as a
 * photo. Portraits frame the face and upper body, landscapes show the surroundings.
 * @param description the user's words ('Send a photo of..', a canned caption, or what the model understood).
 * @param uncensored the plan allows uncensored pictures (Premium Plus); otherwise explicit content is pushed away.
 */
export function buildImagePrompt(
  subject: PictureSubject,
  description: string,
  type: PhotoType,
  uncensored: boolean,
): { prompt: string; negativePrompt: string } {
  const who = subject.sex === "1" ? "man" : "woman";
  const parts = [
    `photo of ${subject.name.trim() || "a person"}, an adult ${who}`,
    subject.appearance.trim(),
    description.trim(),
    type === PHOTO_TYPE_LANDSCAPE
      ? "wide shot, full scene visible, natural light"
      : "portrait, face and upper body, looking at the camera",
    "realistic photograph, detailed face, sharp focus, high quality",
  ].filter(Boolean);
  return {
    prompt: parts.join(", "),
    negativePrompt: uncensored ? NEGATIVE_BASE : `${NEGATIVE_BASE}, ${NEGATIVE_CENSORED}`,
  };
}

const ASKS_FOR_PICTURE =
  /\b(?:send|show|share|take|give|snap|make|draw)\b[^.?!]{0,40}?\b(?:photos?|pictures?|pics?|selfies?|images?|snapshots?)\b(?:\s+(?:of|with|in|at|while|wearing|from)\s+([^.?!]{1,120}))?/i;
const CAN_I_SEE =
  /\b(?:can|could|may)\s+i\s+(?:see|have)\s+(?:a\s+|an\s+|your\s+)?(?:photos?|pictures?|pics?|selfies?)\b(?:\s+(?:of|with|in|at|while|wearing|from)\s+([^.?!]{1,120}))?/i;
const LANDSCAPE_WORDS =
  /\b(?:landscape|scenery|view|beach|sunset|panorama|wide|room|city|park|garden|kitchen)\b/i;

/**
 * Whether a chat message asks in words for a picture ("send me a selfie", "can I see a photo of
 * you at the beach?"), and what of (the reply then carries `genimage: 1` and
 * `options.picDesc`). The type is landscape when the words name a place or a view.
 * @returns undefined when the message does not ask for a picture.
 */
export function detectPictureRequest(message: string): { description: string; type: PhotoType } | undefined {
  const match = ASKS_FOR_PICTURE.exec(message) ?? CAN_I_SEE.exec(message);
  if (!match) return undefined;
  const what = (match[1] ?? "").replace(/\b(?:yourself|you)\b/gi, "").trim();
  const description = what || (/selfie/i.test(match[0]) ? "selfie" : "");
  return { description, type: LANDSCAPE_WORDS.test(message) ? PHOTO_TYPE_LANDSCAPE : 1 };
}

const SENDS_PICTURE =
  /\*[^*]{0,80}?\b(?:sends?|snaps?|takes?|shares?|shows?)\b[^*]{0,40}?\b(?:photos?|pictures?|pics?|selfies?|snapshots?)\b(?:\s+(?:of|with|in|at|from|while|wearing)\s+([^*]{1,120}))?[^*]*\*/i;

/**
 * Whether the character's reply itself sends a picture, written as an action ("*sends you a
 * selfie from the beach*"): the model deciding to send one (genimage from the reply).
 * @returns undefined when the reply does not send a picture.
 */
export function detectPictureInReply(reply: string): { description: string; type: PhotoType } | undefined {
  const match = SENDS_PICTURE.exec(reply);
  if (!match) return undefined;
  const description = (match[1] ?? (/selfie/i.test(match[0]) ? "selfie" : "")).trim();
  return { description, type: LANDSCAPE_WORDS.test(match[0]) ? PHOTO_TYPE_LANDSCAPE : 1 };
}

/** The request menu's fixed texts (product.md §2); their words say what to draw. */
export const PORTRAIT_REQUEST = "Send a portrait photo";
export const LANDSCAPE_REQUEST = "Send a landscape photo";
export const PHOTO_OF_PREFIX = "Send a photo of..";

/** What a request's words ask to draw: the menu texts name only the framing, captions and 'Send a photo of..' the scene. */
export function describeRequest(message: string): string {
  const text = message.trim();
  if (text === PORTRAIT_REQUEST || text === LANDSCAPE_REQUEST) return "";
  if (text.toLowerCase().startsWith(PHOTO_OF_PREFIX.toLowerCase()))
    return text.slice(PHOTO_OF_PREFIX.length).trim();
  const caption = PHOTO_CAPTIONS.find((c) => c.text.toLowerCase() === text.toLowerCase());
  return caption ? caption.text : text;
}

/** Parses the request's type: 1 portrait (default), 2 landscape (product.md §7, 9). */
export function photoType(value: string | number | undefined): PhotoType {
  return Number(value) === PHOTO_TYPE_LANDSCAPE ? PHOTO_TYPE_LANDSCAPE : PHOTO_TYPE_PORTRAIT;
}
