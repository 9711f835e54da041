// Which Chromium the browser tests and browser benchmarks drive, on Linux, macOS and Windows.
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";

/** Where Chromium or Chrome is found on each system, first match wins (Debian's package first). */
const KNOWN_PATHS: Partial<Record<NodeJS.Platform, string[]>> = {
  linux: ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/snap/bin/chromium"],
  darwin: [
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  ],
  win32: [
    `${process.env.PROGRAMFILES ?? "C:\\Program Files"}\\Google\\Chrome\\Application\\chrome.exe`,
    `${process.env["PROGRAMFILES(X86)"] ?? "C:\\Program Files (x86)"}\\Google\\Chrome\\Application\\chrome.exe`,
    `${process.env.LOCALAPPDATA ?? ""}\\Chromium\\Application\\chrome.exe`,
  ],
};

/**
 * The browser to launch: `CHROMIUM_PATH` when set (it must exist); else the first of the system's
 * usual places that exists (KNOWN_PATHS); else Playwright's own Chromium when one is installed
 * (`npx playwright install chromium`). "" when there is none: browser tests are then skipped.
 * @throws Error when CHROMIUM_PATH names no file (a typo must not skip every browser test).
 */
export function findChromium(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  exists: (file: string) => boolean = existsSync,
): string {
  const configured = env.CHROMIUM_PATH?.trim();
  if (configured) {
    if (!exists(configured)) throw new Error(`CHROMIUM_PATH=${configured}: no such file`);
    return configured;
  }
  const known = (KNOWN_PATHS[platform] ?? []).find((file) => exists(file));
  if (known) return known;
  let bundled = "";
  try {
    bundled = chromium.executablePath();
  } catch {}
  return bundled && exists(bundled) ? bundled : "";
}

/** The Chromium of this machine ("" when none: see findChromium). */
export const CHROMIUM = findChromium();
/** Whether a Chromium was found. */
export const hasChromium = CHROMIUM !== "";
