import { afterAll, describe, expect, it } from "vitest";
import { i18nReady, setLanguage } from "../i18n";
import { planDisplayName } from "./planName";

describe("plan names on screen", () => {
  afterAll(() => setLanguage("en"));

  it("shows the built-in free plan in the app's language and any other plan as named", async () => {
    await i18nReady;
    expect(planDisplayName("Free")).toBe("Free");
    const free: Record<string, string> = {
      de: "Kostenlos",
      es: "Gratis",
      fr: "Gratuit",
      it: "Gratuito",
      pt: "Grátis",
    };
    for (const [language, name] of Object.entries(free)) {
      await setLanguage(language);
      expect(planDisplayName("Free"), language).toBe(name);
      expect(planDisplayName("Premium"), language).toBe("Premium");
    }
  });
});
