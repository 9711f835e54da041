import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { loadNamespaces } from "../../../i18n";
import { ChatBanner } from "./ChatBanner";

const render = (props: Parameters<typeof ChatBanner>[0]) =>
  renderToStaticMarkup(createElement(MemoryRouter, null, createElement(ChatBanner, props)));
const NO_MODEL = "No language model is connected yet. Please ask the site's administrator to connect one.";
const REASON = "The default language model is being downloaded; please try again in a few minutes.";

/** the chat-off banner, with the model download's progress while it runs. */
describe("the chat banner", () => {
  // the chat catalogue is loaded on demand (with the signed-in pages).
  beforeAll(() => loadNamespaces(["chat"]));

  it("while the model downloads, shows the reason, a named progress bar at the percent and the percent as text", () => {
    const html = render({ reason: REASON, download: { doneBytes: 420, totalBytes: 1_000, percent: 42 } });
    expect(html).toMatch(
      /^<p class="chat-banner" role="status">The default language model is being downloaded/,
    );
    expect(html).toContain('<progress aria-label="Language model download" max="100" value="42"></progress>');
    expect(html).toContain("<span>42%</span>");
  });

  it("with an unknown size, shows an indeterminate bar (no value) and the megabytes so far", () => {
    const html = render({
      reason: REASON,
      download: { doneBytes: 12_345_678, totalBytes: null, percent: null },
    });
    expect(html).toContain('<progress aria-label="Language model download" max="100"></progress>');
    expect(html).toContain("12.3 MB downloaded");
    expect(html).not.toContain("%");
  });

  it("without a download shows the reason alone, and nothing when the chat is on", () => {
    expect(render({ reason: NO_MODEL })).toBe(
      `<p class="chat-banner" role="status">${NO_MODEL.replace("'", "&#x27;")}</p>`,
    );
    expect(render({ reason: "", download: { doneBytes: 1, totalBytes: 2, percent: 50 } })).toBe("");
  });

  it("for an admin, while no model is connected, adds a link to the admin console's Models section", () => {
    expect(render({ reason: NO_MODEL, adminLink: true })).toContain(
      ' <a href="/admin#models" data-discover="true">Connect a model in the admin console</a></p>',
    );
    expect(render({ reason: NO_MODEL, adminLink: false })).not.toContain("<a ");
  });
});
