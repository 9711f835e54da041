import { createRequire } from "node:module";
import { chromium } from "playwright-core";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CHROMIUM, hasChromium } from "../../../../e2e/support/chromium";
import { SEED_PLANS } from "../../../../server/db/seed-data";
// The app's i18n instance (English catalogues), as in the browser.
import "../../../i18n";
import { DESCRIPTION_PURIFY_CONFIG, loadDescriptionSanitizer } from "../../../lib/sanitize";
import { PlanDescription } from "./PlanDescription";

const MALICIOUS =
  '<p>Safe <b>bold</b> text</p><img src="x" onerror="window.__pwned=1"><script>window.__pwned=2</script><a href="javascript:window.__pwned=3">link text</a>';

const render = (stored: string) => renderToStaticMarkup(createElement(PlanDescription, { stored }));

/**
 * product.md §3: a plan's description on /pricing. A seeded one (translated from our
 * catalogue) needs no DOMPurify; an admin-edited one is shown only sanitised, DOMPurify being
 * loaded for it on demand.
 */
describe("a plan's description", () => {
  it("shows a seeded description from the catalogue at once", () => {
    const seeded = SEED_PLANS[1].description_html;
    expect(render(seeded)).toBe(`<div class="pricing-card__description">${seeded}</div>`);
  });

  it("shows nothing of an admin-edited description before DOMPurify is loaded, then only what it lets through", async () => {
    expect(render(MALICIOUS)).toBe('<div class="pricing-card__description"></div>');
    const sanitize = await loadDescriptionSanitizer();
    const html = render(MALICIOUS);
    expect(html).toBe(`<div class="pricing-card__description">${sanitize(MALICIOUS)}</div>`);
    // Node has no DOM for DOMPurify: the sanitiser then gives nothing rather than the HTML as it is.
    expect(html).not.toMatch(/<script|onerror|javascript:|<a /);
  });

  it.skipIf(!hasChromium)(
    "in a browser, DOMPurify with the description settings drops the script, the handler and the link",
    async () => {
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ["--headless", "--no-sandbox", "--disable-gpu"],
      });
      try {
        const page = await browser.newPage();
        const purify = createRequire(import.meta.url).resolve("dompurify/dist/purify.js");
        await page.addScriptTag({ path: purify });
        const html = await page.evaluate(
          ([dirty, config]) =>
            (
              window as unknown as { DOMPurify: { sanitize: (h: string, c: unknown) => string } }
            ).DOMPurify.sanitize(dirty, config),
          [MALICIOUS, DESCRIPTION_PURIFY_CONFIG] as const,
        );
        expect(html).toContain("<b>bold</b>");
        expect(html).toContain("link text");
        expect(html).not.toMatch(/<script|onerror|javascript:|<a /);
        expect(
          await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
        ).toBeUndefined();
      } finally {
        await browser.close();
      }
    },
  );
});
