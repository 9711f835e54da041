import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CHROMIUM, hasChromium } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * The installable web app (docs/product.md, "Installing the app"): the manifest the SPA links is
 * served as application/manifest+json with the fields a phone needs and icons that load, and
 * Chromium finds nothing stopping an install (no service worker needed: the app has none).
 */

if (!hasChromium) console.warn(`install e2e skipped: no Chromium found (set CHROMIUM_PATH)`);

/** The manifest fields this test reads. */
interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
}

describe.skipIf(!hasChromium)("installable web app", () => {
  const suite = useBrowserSuite();

  it("serves a manifest with the required fields and icons that load", async () => {
    const answer = await fetch(`${suite.url}/manifest.webmanifest`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^application\/manifest\+json/);
    const manifest = (await answer.json()) as Manifest;
    expect(manifest).toMatchObject({
      name: "Companion",
      short_name: "Companion",
      start_url: "/",
      scope: "/",
      display: "standalone",
      theme_color: "#14111c",
      background_color: "#0f0d15",
    });
    const sizes = manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? "any"}`);
    expect(sizes).toEqual(expect.arrayContaining(["192x192 any", "512x512 any", "512x512 maskable"]));
    for (const icon of [...manifest.icons, { src: "/icons/apple-touch-icon.png", sizes: "180x180" }]) {
      const image = await fetch(new URL(icon.src, suite.url));
      expect(image.status, icon.src).toBe(200);
      expect(image.headers.get("content-type"), icon.src).toBe("image/png");
      // PNG width and height sit at bytes 16-23 of the IHDR chunk.
      const bytes = Buffer.from(await image.arrayBuffer());
      const [width, height] = icon.sizes.split("x").map(Number);
      expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], icon.src).toEqual([width, height]);
    }
  });

  it("Chromium reports the app installable, with a manifest free of errors", async () => {
    // Chromium never offers an install in an incognito profile, which every launched context is:
    // this one check runs in a profile on disk.
    const profile = mkdtempSync(path.join(tmpdir(), "install-e2e-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (event) => {
          console.error(`[csp-violation] ${event.effectiveDirective} blocked ${event.blockedURI}`);
        });
      });
      const violations: string[] = [];
      page.on("console", (message) => {
        if (message.text().startsWith("[csp-violation]")) violations.push(message.text());
      });
      await page.goto(`${suite.url}/`);
      await page.waitForLoadState("load");
      const head = await page.evaluate(() => ({
        manifest: document.querySelector('link[rel="manifest"]')?.getAttribute("href"),
        appleIcon: document.querySelector('link[rel="apple-touch-icon"]')?.getAttribute("href"),
        theme: document.querySelector('meta[name="theme-color"]')?.getAttribute("content"),
      }));
      expect(head).toEqual({
        manifest: "/manifest.webmanifest",
        appleIcon: "/icons/apple-touch-icon.png",
        theme: "#14111c",
      });
      const cdp = await page.context().newCDPSession(page);
      const manifest = await cdp.send("Page.getAppManifest");
      expect(manifest.url).toBe(`${suite.url}/manifest.webmanifest`);
      expect(manifest.errors).toEqual([]);
      const installability = await cdp.send("Page.getInstallabilityErrors");
      expect(installability.installabilityErrors).toEqual([]);
      expect(violations, "Content-Security-Policy violations in the page").toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
