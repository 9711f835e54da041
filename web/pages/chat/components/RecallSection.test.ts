import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { RecalledMessage, RecallInspection } from "../../../../common/prompt-inspection";
import { formatDate, loadNamespaces } from "../../../i18n";
import { RecallSection } from "./RecallSection";

const LIGHTHOUSE = Date.UTC(2026, 5, 14, 20, 30);

/** A recalled message: a match by words unless told otherwise. */
function recalled(overrides: Partial<RecalledMessage> = {}): RecalledMessage {
  return {
    entryId: "entry-1",
    side: "user",
    time: LIGHTHOUSE,
    speaker: "Sam",
    text: "We walked to the lighthouse at dawn.",
    tokens: 14,
    why: "match",
    terms: ["lighthous", "dawn"],
    by: ["words"],
    ...overrides,
  };
}

const recall = (overrides: Partial<RecallInspection> = {}): RecallInspection => ({
  enabled: true,
  query: ["lighthous", "dawn", "sea"],
  budget: 410,
  ms: 7,
  messages: [
    recalled(),
    recalled({
      side: "reply",
      speaker: "Mira",
      text: "And the keeper waved at us.",
      tokens: 12,
      why: "neighbour",
      terms: [],
      by: ["meaning"],
    }),
  ],
  ...overrides,
});

const render = (value: RecallInspection) =>
  renderToStaticMarkup(createElement(RecallSection, { recall: value, onJump: () => undefined }));

/** The text of the markup, tags removed. */
const text = (html: string) => html.replace(/<[^>]+>/g, "");

/** The prompt inspector's "Recalled from earlier" section, rendered as the dialog shows it. */
describe("the recall section", () => {
  beforeAll(() => loadNamespaces(["chat"]));

  it("when recall is off, says so in one line under its heading, with no list and no jump", () => {
    const html = render(recall({ enabled: false }));
    expect(text(html)).toBe("Recalled from earlierRecall is off for this chat.");
    expect(html).not.toContain("<ul");
    expect(html).not.toContain("<button");
  });

  it("gives the query's words, the tokens used of the budget and the search's time", () => {
    const shown = text(render(recall()));
    expect(shown).toContain("Searched for: lighthous, dawn, sea");
    expect(shown).toContain("26 of 410 tokens used (7 ms).");
    expect(text(render(recall({ query: [], messages: [] })))).toBe(
      "Recalled from earlierNo words to search for.0 of 410 tokens used (7 ms).No earlier message was recalled.",
    );
  });

  it("lists the messages under the section's heading, each with speaker and short date as its heading, its text, why and a jump", () => {
    const html = render(recall());
    const heading =
      /<section class="prompt-inspector__recall" aria-labelledby="([^"]+)"><h3 id="\1">Recalled from earlier<\/h3>/.exec(
        html,
      );
    expect(heading).not.toBeNull();
    expect(html).toContain(`<ul class="prompt-inspector__recalled" aria-labelledby="${heading?.[1]}">`);
    const items = html.split("<li ").slice(1);
    expect(items).toHaveLength(2);
    const date = formatDate(LIGHTHOUSE, { dateStyle: "short" });
    expect(text(`<li ${items[0]}`)).toBe(
      `Sam · ${date}We walked to the lighthouse at dawn.matched: lighthous, dawnJump to it`,
    );
    expect(items[0]).toContain(`<time dateTime="${new Date(LIGHTHOUSE).toISOString()}">`);
    expect(text(`<li ${items[1]}`)).toBe(
      `Mira · ${date}And the keeper waved at us.next to a match · by meaningJump to it`,
    );
  });

  it("names each jump button and ties it to its message's heading", () => {
    const html = render(recall());
    const pairs = [
      ...html.matchAll(
        /<h4 id="([^"]+)"[^>]*>[\s\S]*?<button type="button"[^>]*aria-describedby="([^"]+)"[^>]*>([^<]+)<\/button>/g,
      ),
    ];
    expect(pairs).toHaveLength(2);
    for (const [, headingId, describedBy, name] of pairs) {
      expect(describedBy).toBe(headingId);
      expect(name).toBe("Jump to it");
    }
    expect(pairs[0]?.[1]).not.toBe(pairs[1]?.[1]);
  });
});
