import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closePage, hasChromium, launchBrowser, openPage, takeCspViolations } from "../e2e/support/browser";
import { startTestServer } from "../server/testing/server";

/**
 * In a real browser: a plan description written by an admin (HTML, sanitised by
 * DOMPurify, which keeps plain images) names a picture on another origin. The CSP's img-src stops
 * the browser from loading it, so a plan page cannot be used to track visitors. The "other
 * origin" is a second HTTP server on loopback, which counts the requests it gets.
 */

if (!hasChromium) console.warn("CSP browser test skipped: no Chromium found (set CHROMIUM_PATH)");

describe.skipIf(!hasChromium)("CSP in Chromium", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let outside: http.Server;
  const outsideHits: string[] = [];

  beforeAll(async () => {
    outside = http.createServer((request, response) => {
      outsideHits.push(request.url ?? "");
      response.writeHead(200, { "content-type": "image/gif" });
      response.end(Buffer.from("R0lGODlhAQABAAAAACw=", "base64"));
    });
    await new Promise<void>((resolve) => outside.listen(0, "127.0.0.1", resolve));
    [server, browser] = await Promise.all([
      startTestServer({ env: { LLM_PROVIDER: "none" } }),
      launchBrowser(),
    ]);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await new Promise((resolve) => outside?.close(resolve));
  });

  it("does not load a picture from another origin named in a plan's description", async () => {
    const { port } = outside.address() as AddressInfo;
    await server.db
      .updateTable("plans")
      .set({
        description_html: `<p>Best plan</p><img alt="tracker" src="http://127.0.0.1:${port}/pixel.gif">`,
      })
      .where("name", "=", "Basic Plan")
      .execute();
    const page = await openPage(browser);
    await page.goto(`${server.url}/pricing`);
    await page.getByText("Best plan").waitFor();
    await page.waitForTimeout(500);
    // Sanitising kept the <img> (it is plain HTML); the CSP is what stops the request.
    expect(await page.locator('img[alt="tracker"]').count()).toBe(1);
    expect(outsideHits).toEqual([]);
    const violations = takeCspViolations();
    expect(violations.some((v) => v.includes("img-src") && v.includes(`127.0.0.1:${port}`))).toBe(true);
    await closePage(page);
  });
});
