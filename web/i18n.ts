// UI translations in six languages: the catalogues, which language applies, switching it, and date and price formats.
import i18n, { type BackendModule, type Resource } from "i18next";
import { initReactI18next } from "react-i18next";
import { UI_LANGUAGES } from "../common/constants";
import { readUser, subscribeSession } from "./lib/session";

/**
 * UI translations. The catalogues are `web/locales/<lng>/<ns>.json`; English is the
 * source and the fallback. To keep the first download small, only English's
 * public catalogues (`PUBLIC_NAMESPACES`) are in the entry chunk; every other catalogue is its
 * own chunk served by our server, loaded for the current language before the first render
 * (`i18nReady`), with the signed-in pages (`loadNamespaces`) and on a switch (`setLanguage`). The language is, in this order: the
 * account's (`SessionUser.uiLanguage`), the one chosen while signed out (local storage), the
 * browser's first supported one (`navigator.languages`), English.
 */

/** The six languages of the app (the seeded characters' languages), English first. */
export const SUPPORTED_LANGUAGES: ReadonlyArray<{ code: LanguageCode; name: string }> = [
  { code: "en", name: "English" },
  { code: "es", name: "Español" },
  { code: "fr", name: "Français" },
  { code: "de", name: "Deutsch" },
  { code: "it", name: "Italiano" },
  { code: "pt", name: "Português" },
];

/** One of the six language codes. */
export type LanguageCode = (typeof UI_LANGUAGES)[number];

/** Local storage key of the language chosen while signed out. */
export const STORAGE_KEY_LANGUAGE = "uiLanguage";

const CODES: readonly string[] = UI_LANGUAGES;

/** Whether `value` is one of the six codes. */
export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === "string" && CODES.includes(value);
}

/**
 * The first supported language of a browser list such as `navigator.languages`
 * ("de-AT" counts as "de"), or null when none is.
 */
export function pickLanguage(candidates: readonly string[]): LanguageCode | null {
  for (const candidate of candidates) {
    const base = candidate.toLowerCase().split(/[-_]/)[0];
    if (isLanguageCode(base)) return base;
  }
  return null;
}

function storedChoice(): LanguageCode | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY_LANGUAGE);
    return isLanguageCode(value) ? value : null;
  } catch {
    return null;
  }
}

function browserLanguages(): readonly string[] {
  if (typeof navigator === "undefined") return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language ?? ""];
}

/** The language to show now: account, else stored choice, else browser, else English. */
export function resolveLanguage(): LanguageCode {
  const account = typeof localStorage === "undefined" ? undefined : readUser()?.uiLanguage;
  if (isLanguageCode(account)) return account;
  return storedChoice() ?? pickLanguage(browserLanguages()) ?? "en";
}

type Catalogue = Record<string, unknown>;

/**
 * The namespaces of the public pages (home, login, pricing, contact and the layout), loaded before
 * the first render. The others load with the pages that use them (`loadNamespaces`, web/App.tsx):
 * `faq` and `terms` (the long texts of /faq and /terms) and `APP_NAMESPACES`.
 */
export const PUBLIC_NAMESPACES = ["common", "public", "auth"] as const;

/** The namespaces of the signed-in pages: characters, chat, profile, admin. */
export const APP_NAMESPACES = ["characters", "chat", "profile", "admin"] as const;

/** English catalogues of the public namespaces: in the entry chunk, English is the fallback. */
const ENGLISH_FILES = import.meta.glob<Catalogue>("./locales/en/{common,public,auth}.json", {
  eager: true,
  import: "default",
});

/** Every other catalogue: its own chunk, fetched (from our server) when first needed. */
const LAZY_FILES = import.meta.glob<Catalogue>(
  ["./locales/*/*.json", "!./locales/en/{common,public,auth}.json"],
  { import: "default" },
);

/**
 * The validation sentences' catalogues (common/i18n/validation/<lng>.json, id -> text, shared with
 * the server), the `validation` namespace: each its own chunk, English's fetched at start (it is
 * every language's fallback) and a language's with its `common` namespace. web/lib/validationText.ts
 * renders the sentences of common/validation.ts by id with them.
 */
const VALIDATION_FILES = import.meta.glob<Record<string, string>>("../common/i18n/validation/*.json", {
  import: "default",
});

/** The i18next namespace of the validation catalogues. */
export const VALIDATION_NAMESPACE = "validation";

/** Loads `lng`'s validation catalogue into i18next (once); never rejects (a failure leaves English). */
function loadValidationCatalogue(lng: string): Promise<void> {
  const load = VALIDATION_FILES[`../common/i18n/validation/${lng}.json`];
  if (load === undefined || i18n.hasResourceBundle(lng, VALIDATION_NAMESPACE)) return Promise.resolve();
  return load().then(
    (catalogue) => {
      i18n.addResourceBundle(lng, VALIDATION_NAMESPACE, catalogue, true, true);
    },
    () => undefined,
  );
}

/** Whether `lng`'s validation catalogue has loaded (English: the sentences' own texts). */
export function hasValidationCatalogue(lng: string): boolean {
  return i18n.hasResourceBundle(lng, VALIDATION_NAMESPACE);
}

const FILE_NAME = /\.\/locales\/([^/]+)\/([^/]+)\.json$/;

/** `{en: {ns: catalogue}}` for the bundled English catalogues. */
function bundledResources(): Resource {
  const english: Record<string, Catalogue> = {};
  for (const [file, catalogue] of Object.entries(ENGLISH_FILES)) {
    const ns = FILE_NAME.exec(file)?.[2];
    if (ns !== undefined) english[ns] = catalogue;
  }
  return { en: english };
}

/**
 * The i18next backend of the catalogues not bundled: `read(lng, ns)` imports
 * `./locales/<lng>/<ns>.json` (one chunk per catalogue), and with `common` the language's
 * validation catalogue and English's (`loadValidationCatalogue`). An unknown pair rejects, which i18next treats as a
 * failed load (the texts then fall back to English).
 */
const lazyCatalogues: BackendModule = {
  type: "backend",
  callbackApi: false,
  init() {},
  read(lng: string, ns: string) {
    const load = LAZY_FILES[`./locales/${lng}/${ns}.json`];
    if (load === undefined) return Promise.reject(new Error(`no catalogue ${lng}/${ns}`));
    if (ns !== "common") return load();
    return Promise.all([load(), loadValidationCatalogue(lng), loadValidationCatalogue("en")]).then(
      ([catalogue]) => catalogue,
    );
  },
} as unknown as BackendModule;

/**
 * Resolves once the current language's public catalogues are in (English at once: it is
 * bundled). web/root.tsx renders after it, so the first screen is never shown in the wrong
 * language. Never rejects: a catalogue that failed to load leaves its texts in English.
 */
export const i18nReady: Promise<void> = i18n
  .use(lazyCatalogues)
  .use(initReactI18next)
  .init({
    resources: bundledResources(),
    partialBundledLanguages: true,
    lng: resolveLanguage(),
    fallbackLng: "en",
    supportedLngs: CODES,
    ns: [...PUBLIC_NAMESPACES],
    defaultNS: "common",
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  })
  .then(
    () => undefined,
    () => undefined,
  );

// English's validation texts: every language's fallback, and English's own (bundled catalogues do
// not pass through the backend). A small chunk of its own, not waited for.
void loadValidationCatalogue("en");

/**
 * Loads `namespaces` in the current language (and English, the fallback) and resolves when they
 * are in; later language switches load them too. The signed-in pages' route loaders (web/App.tsx)
 * call it with `APP_NAMESPACES`. Never rejects (a failed catalogue leaves English texts).
 */
export function loadNamespaces(namespaces: readonly string[]): Promise<void> {
  return i18n.loadNamespaces([...namespaces]).then(
    () => undefined,
    () => undefined,
  );
}

function applyToDocument(lng: string): void {
  if (typeof document !== "undefined") document.documentElement.lang = lng;
}
applyToDocument(i18n.language);
i18n.on("languageChanged", applyToDocument);

/** The language shown now (one of the six codes). */
export function currentLanguage(): LanguageCode {
  return isLanguageCode(i18n.language) ? i18n.language : "en";
}

/**
 * Shows the app in `lng` and keeps the choice in local storage (the signed-out choice).
 * The language's catalogues are loaded first (their chunks), then the app switches; resolves when
 * it has. Keeping the choice with the account is the caller's part (POST /api/users/ui-language).
 * Unknown codes are ignored.
 */
export async function setLanguage(lng: string): Promise<void> {
  if (!isLanguageCode(lng)) return;
  try {
    localStorage.setItem(STORAGE_KEY_LANGUAGE, lng);
  } catch {
    // Storage may be unavailable (private mode): the choice then lasts for this page only.
  }
  if (i18n.language !== lng) await i18n.changeLanguage(lng);
}

// A sign-in (or another tab) brings the account's language: follow it.
if (typeof window !== "undefined") {
  subscribeSession(() => {
    const account = readUser()?.uiLanguage;
    if (isLanguageCode(account) && account !== i18n.language) void setLanguage(account);
  });
}

/**
 * An object of texts for modules outside components: each name in `keys` is a
 * property that reads `<ns>:<prefix><name>` from the catalogue each time it is read, so a
 * language switch takes effect without reloading; `functions` (texts with variables, which call
 * `i18n.t` themselves) are kept as they are. E.g. `lookups("chat", "main.", ["send"], {})`.
 */
export function lookups<K extends string, F extends object>(
  ns: string,
  prefix: string,
  keys: readonly K[],
  functions: F,
): Readonly<Record<K, string>> & F {
  const texts = { ...functions } as F & Record<K, string>;
  for (const key of keys) {
    Object.defineProperty(texts, key, { get: () => i18n.t(`${ns}:${prefix}${key}`), enumerable: true });
  }
  return texts;
}

/**
 * `value` (a Date, epoch ms or an ISO string) as a date in the current language via
 * `Intl.DateTimeFormat`; `options` default to the medium date style.
 */
export function formatDate(value: Date | number | string, options?: Intl.DateTimeFormatOptions): string {
  const date = value instanceof Date ? value : new Date(value);
  return new Intl.DateTimeFormat(currentLanguage(), options ?? { dateStyle: "medium" }).format(date);
}

/**
 * `amount` (in the currency's main unit, e.g. 9.99) of `currency` (ISO 4217, e.g. "EUR") as a
 * price in the current language via `Intl.NumberFormat`.
 */
export function formatPrice(amount: number, currency: string): string {
  return new Intl.NumberFormat(currentLanguage(), {
    style: "currency",
    currency: currency.toUpperCase(),
  }).format(amount);
}

export default i18n;
