// Character cards (V1/V2/V3): reading an imported card safely into character fields, and building a character's cards for export.
import {
  APPEARANCE_MAX_LENGTH,
  BACKSTORY_MAX_LENGTH,
  GREETING_MAX_LENGTH,
  REPLY_SWIPES_MAX,
} from "../../../common/constants";
import { badRequest } from "../../errors";
import { carried, msg } from "../../i18n/messages";
import { type Lorebook, parseLorebook, toCharacterBook } from "../prompt/lorebook";
import { type GenerationColumns, withCardGeneration } from "./generation";
import { readPngTextChunks } from "./png-chunks";

/** Largest card JSON accepted, bytes. */
const MAX_CARD_JSON_BYTES = 4 * 1024 * 1024;
/** Deepest nesting accepted in a card's JSON. */
const MAX_DEPTH = 32;
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** The fields of a Character Card V2/V3 `data` object we use (the rest is kept as is). */
export interface CardData {
  name: string;
  description: string;
  personality: string;
  scenario: string;
  first_mes: string;
  mes_example: string;
  creator_notes: string;
  system_prompt: string;
  post_history_instructions: string;
  alternate_greetings: string[];
  tags: string[];
  creator: string;
  character_version: string;
  extensions: Record<string, unknown>;
  character_book?: unknown;
  [key: string]: unknown;
}

/** What an imported card becomes: character fields within the spec's limits, plus the whole card. */
export interface ImportedCard {
  name: string;
  backstory: string;
  greeting: string;
  appearance: string;
  /**
   * The card's alternate greetings (swipes of the first message): the non-blank ones,
   * at most REPLY_SWIPES_MAX - 1, each cut to the greeting's GREETING_MAX_LENGTH.
   */
  alternateGreetings: string[];
  /** The full card `data` (every field, untruncated), stored with the character. */
  data: CardData;
}

/**
 * The lorebook of a card's `data.character_book`, checked like the form's.
 * @returns null when the card has none (or an empty one). @throws AppError 400 with a sentence
 *   for a book `parseLorebook` refuses (too many entries, content too long, keys not words).
 */
export function cardLorebook(data: CardData): Lorebook | null {
  if (data.character_book === undefined || data.character_book === null) return null;
  const parsed = parseLorebook(data.character_book);
  if (!parsed.ok)
    throw badRequest(msg("characters.cardLorebookRefused", { message: carried(parsed) ?? parsed.message }));
  return parsed.book.entries.length > 0 ? parsed.book : null;
}

/**
 * Parses JSON with the checks an untrusted card needs: size, nesting depth, and no
 * `__proto__`/`constructor`/`prototype` keys (prototype pollution).
 * @throws AppError 400 naming the problem.
 */
export function parseCardJson(text: string): unknown {
  if (Buffer.byteLength(text) > MAX_CARD_JSON_BYTES) throw badRequest(msg("characters.cardDataLargerThan4"));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(msg("characters.cardDataNotValidJson"));
  }
  const check = (node: unknown, depth: number): void => {
    if (depth > MAX_DEPTH) throw badRequest(msg("characters.cardDataNestedTooDeeply"));
    if (node && typeof node === "object") {
      for (const key of Object.keys(node)) {
        if (FORBIDDEN_KEYS.has(key)) throw badRequest(msg("characters.keyNotAllowed", { key }));
        check((node as Record<string, unknown>)[key], depth + 1);
      }
    }
  };
  check(value, 0);
  return value;
}

function decodeBase64Json(payload: string): unknown {
  const clean = payload.trim();
  if (!/^[A-Za-z0-9+/=\s]*$/.test(clean) || clean.length === 0) {
    throw badRequest(msg("characters.metadataNotValidBase64"));
  }
  return parseCardJson(Buffer.from(clean, "base64").toString("utf8"));
}

const str = (v: unknown) => (typeof v === "string" ? v : "");
const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** Normalises a V1, V2 or V3 card object into `data` with every field present. */
function cardData(card: unknown): CardData {
  if (!card || typeof card !== "object" || Array.isArray(card))
    throw badRequest(msg("characters.cardDataNotObject"));
  const root = card as Record<string, unknown>;
  const isWrapped = root.spec === "chara_card_v2" || root.spec === "chara_card_v3";
  const raw = (isWrapped ? root.data : root) as Record<string, unknown> | undefined;
  if (!raw || typeof raw !== "object") throw badRequest(msg("characters.cardNoData"));
  const name = str(raw.name).trim();
  if (!name) throw badRequest(msg("characters.cardNoName"));
  return {
    ...raw,
    name,
    description: str(raw.description),
    personality: str(raw.personality),
    scenario: str(raw.scenario),
    first_mes: str(raw.first_mes),
    mes_example: str(raw.mes_example),
    creator_notes: str(raw.creator_notes),
    system_prompt: str(raw.system_prompt),
    post_history_instructions: str(raw.post_history_instructions),
    alternate_greetings: strings(raw.alternate_greetings),
    tags: strings(raw.tags),
    creator: str(raw.creator),
    character_version: str(raw.character_version),
    extensions:
      raw.extensions && typeof raw.extensions === "object" && !Array.isArray(raw.extensions)
        ? (raw.extensions as Record<string, unknown>)
        : {},
  };
}

/** Cuts text to `max` characters at a word boundary when one is near. */
function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return (space > max * 0.8 ? cut.slice(0, space) : cut).trimEnd();
}

/** Maps card data to character fields: description, personality and scenario make the backstory. */
export function importCardData(data: CardData): ImportedCard {
  const backstory = [
    data.description,
    data.personality && `Personality: ${data.personality}`,
    data.scenario && `Scenario: ${data.scenario}`,
  ]
    .map((part) => part.trim())
    .filter(Boolean)
    .join("\n\n");
  const appearance = typeof data.extensions.appearance === "string" ? data.extensions.appearance : "";
  return {
    name: truncateText(data.name, 50),
    backstory: truncateText(backstory || data.name, BACKSTORY_MAX_LENGTH),
    greeting: truncateText(data.first_mes, GREETING_MAX_LENGTH),
    appearance: truncateText(appearance, APPEARANCE_MAX_LENGTH),
    alternateGreetings: data.alternate_greetings
      .filter((g) => g.trim())
      .slice(0, REPLY_SWIPES_MAX - 1)
      .map((g) => truncateText(g, GREETING_MAX_LENGTH)),
    data,
  };
}

/**
 * Reads a character card from a PNG (the `ccv3` chunk first, else `chara`) or from JSON bytes.
 * @throws AppError 400 with the reason for anything that is not a valid card.
 */
export function readCard(bytes: Buffer): ImportedCard {
  const first = bytes.subarray(0, 1).toString();
  if (first === "{") return importCardData(cardData(parseCardJson(bytes.toString("utf8"))));
  const texts = readPngTextChunks(bytes);
  const payload = texts.get("ccv3") ?? texts.get("chara");
  if (!payload) throw badRequest(msg("characters.pngCarriesNoCharacterCard"));
  return importCardData(cardData(decodeBase64Json(payload)));
}

/**
 * The card of a character: V2 and V3 objects with the same data (the stored card's extra fields
 * kept); the character's lorebook, edited or not, is written as `data.character_book`, its
 * generation settings as `data.extensions.depth_prompt` and `companion` (generation.ts).
 */
export function buildCards(
  character: {
    name: string;
    description: string;
    greeting: string;
    appearance: string;
  } & Partial<GenerationColumns>,
  stored: CardData | undefined,
  lorebook: Lorebook | null = null,
): { v2: object; v3: object } {
  const base: CardData = stored ?? cardData({ name: character.name });
  const storedImport = stored ? importCardData(stored) : undefined;
  // Fields edited in our form win over the stored card; untouched ones keep the full original text.
  const description =
    storedImport && storedImport.backstory === character.description
      ? base.description
      : character.description;
  const personality =
    storedImport && storedImport.backstory === character.description ? base.personality : "";
  const scenario = storedImport && storedImport.backstory === character.description ? base.scenario : "";
  const firstMes =
    storedImport && storedImport.greeting === character.greeting ? base.first_mes : character.greeting;
  const { character_book: _storedBook, ...rest } = base;
  const data: CardData = {
    ...rest,
    ...(lorebook ? { character_book: toCharacterBook(lorebook) } : {}),
    name: character.name,
    description,
    personality,
    scenario,
    first_mes: firstMes,
    extensions: withCardGeneration(
      { ...base.extensions, ...(character.appearance ? { appearance: character.appearance } : {}) },
      character,
    ),
  };
  return {
    v2: { spec: "chara_card_v2", spec_version: "2.0", data },
    v3: { spec: "chara_card_v3", spec_version: "3.0", data: { group_only_greetings: [], ...data } },
  };
}
