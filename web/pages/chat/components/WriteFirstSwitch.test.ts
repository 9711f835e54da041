import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadNamespaces, setLanguage } from "../../../i18n";
import { WriteFirstSwitch } from "./WriteFirstSwitch";

const render = (on: boolean, modelReady: boolean) =>
  renderToStaticMarkup(createElement(WriteFirstSwitch, { name: "Mia", on, modelReady, onChange: () => {} }));
const input = (html: string) => html.match(/<input[^>]*>/)?.[0] ?? "";

/** 'Let {name} write first' (check-ins) cannot be turned on while no language model is ready. */
describe("the write-first switch", () => {
  beforeAll(() => loadNamespaces(["chat"]));
  afterAll(() => setLanguage("en"));

  it("with a model, is enabled and gives no reason", () => {
    const html = render(false, true);
    expect(input(html)).not.toContain("disabled");
    expect(html).toContain("Let Mia write first");
    expect(html).not.toContain("no language model");
  });

  it("with no model, is disabled and says why, the reason tied to the switch", () => {
    const html = render(false, false);
    expect(input(html)).toContain('disabled=""');
    expect(html).toContain("Mia cannot write first while no language model is connected.");
    const describedBy = input(html).match(/aria-describedby="([^"]+)"/)?.[1];
    expect(describedBy).toBeTruthy();
    expect(html).toContain(`id="${describedBy}"`);
  });

  it("with no model, a switch already on can still be turned off", () => {
    expect(input(render(true, false))).not.toContain("disabled");
  });

  it("says the reason in the user's language", async () => {
    await setLanguage("de");
    expect(render(false, false)).toContain(
      "Solange kein Sprachmodell verbunden ist, kann Mia nicht zuerst schreiben.",
    );
  });
});
