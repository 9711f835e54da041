import { afterAll, describe, expect, it } from "vitest";
import { SEED_PLANS } from "../../../server/db/seed-data";
import i18n, { setLanguage } from "../../i18n";
import { SEEDED_PLAN_DESCRIPTIONS, seededPlanDescription } from "./planDescription";

/**
 * the seeded plans' descriptions are shown translated while the admin has not changed
 * them; an edited description is shown as stored.
 */
describe("plan descriptions on the pricing page", () => {
  afterAll(() => setLanguage("en"));

  it("has one English text per seeded plan, each exactly the seeded description HTML", () => {
    const english = SEEDED_PLAN_DESCRIPTIONS.map((key) => i18n.t(`public:${key}`, { lng: "en" }));
    expect(english).toEqual(SEED_PLANS.map((plan) => plan.description_html));
  });

  it("shows a seeded description in the current language and no catalogue text for an edited one", async () => {
    const t = i18n.getFixedT(null, "public");
    const seeded = SEED_PLANS[1].description_html;
    expect(seededPlanDescription(seeded, t)).toBe(seeded);
    await setLanguage("de");
    const german = i18n.getFixedT(null, "public");
    expect(seededPlanDescription(seeded, german)).toBe(
      "<p>1.000 Nachrichten im Monat und <b>Foto-Upload</b> für deine Figuren.</p>",
    );
    for (const edited of [`${seeded} `, "<p>Our new plan.</p>", ""]) {
      expect(seededPlanDescription(edited, german)).toBeNull();
    }
  });
});
