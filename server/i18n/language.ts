// The language of a request's messages: the best match of Accept-Language, else the user's chosen language, else English.
import type { FastifyRequest } from "fastify";
import { LANGUAGES, type Language } from "./messages";

/**
 * Longest `Accept-Language` read, characters: a browser sends a few dozen; the rest
 * of a longer header is ignored, so a 10 KB header costs no more than a short one.
 */
export const ACCEPT_LANGUAGE_MAX_LENGTH = 256;
/** Most language ranges read from one header. */
const MAX_RANGES = 16;

const isLanguage = (tag: string): tag is Language => (LANGUAGES as readonly string[]).includes(tag);

/**
 * The best supported language of an `Accept-Language` header (RFC 9110 12.5.4): ranges ordered
 * by q-value (default 1, equal ones in header order), regions stripped ("de-AT" -> "de"), "*",
 * unknown languages and q=0 skipped. Reads at most ACCEPT_LANGUAGE_MAX_LENGTH characters and
 * MAX_RANGES ranges; anything malformed is skipped, never thrown.
 * @returns the language, or undefined when the header names none of LANGUAGES.
 */
export function pickLanguage(header: string | string[] | undefined): Language | undefined {
  const text = (Array.isArray(header) ? header.join(",") : (header ?? "")).slice(
    0,
    ACCEPT_LANGUAGE_MAX_LENGTH,
  );
  const ranges: Array<{ language: Language; q: number; index: number }> = [];
  const parts = text.split(",", MAX_RANGES);
  parts.forEach((range, index) => {
    const [tag = "", ...params] = range.split(";");
    const primary = tag.trim().toLowerCase().split("-")[0] ?? "";
    if (!isLanguage(primary)) return;
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
      if (m) q = Number(m[1]);
      else if (/^\s*q\s*=/i.test(param)) q = 0; // a malformed weight counts as "not acceptable"
    }
    if (q > 0 && q <= 1) ranges.push({ language: primary, q, index });
  });
  ranges.sort((a, b) => b.q - a.q || a.index - b.index);
  return ranges[0]?.language;
}

/**
 * The language of a request's messages: the best match of its `Accept-Language`
 * (the SPA sends its current language), else the signed-in user's `ui_language` when the user
 * is already loaded on the request (no database read here), else English.
 */
export function requestLanguage(request: FastifyRequest): Language {
  const stored = request.user?.ui_language ?? "";
  return pickLanguage(request.headers["accept-language"]) ?? (isLanguage(stored) ? stored : "en");
}
