import { describe, expect, it } from "vitest";
import { ACCEPT_LANGUAGE_MAX_LENGTH, pickLanguage } from "./language";
import { explain, localiseEnvelope, TRANSLATE_MAX_LENGTH, translate } from "./translate";

describe("pickLanguage (Accept-Language)", () => {
  it("takes the highest q-value, regions stripped, ties in header order", () => {
    expect(pickLanguage("de-DE,de;q=0.9,en;q=0.5")).toBe("de");
    expect(pickLanguage("de-AT")).toBe("de");
    expect(pickLanguage("en;q=0.4, fr-CA;q=0.9, de;q=0.7")).toBe("fr");
    expect(pickLanguage("pt-BR;q=0.8, it;q=0.8")).toBe("pt");
    expect(pickLanguage("ja, zh;q=0.9, es;q=0.1")).toBe("es");
    expect(pickLanguage("ES")).toBe("es");
  });

  it("skips q=0, '*', unknown languages and malformed weights; none left is undefined", () => {
    expect(pickLanguage("de;q=0, it;q=0.2")).toBe("it");
    expect(pickLanguage("*")).toBeUndefined();
    expect(pickLanguage("ja, ko")).toBeUndefined();
    expect(pickLanguage("de;q=abc, fr;q=0.1")).toBe("fr");
    expect(pickLanguage("de;q=2")).toBeUndefined();
    expect(pickLanguage(undefined)).toBeUndefined();
    expect(pickLanguage("")).toBeUndefined();
  });

  it("reads a bounded prefix of a long header", () => {
    expect(pickLanguage(`${"x-y;q=0.5,".repeat(1000)}de`)).toBeUndefined();
    expect(pickLanguage(`de,${"x".repeat(10_000)}`)).toBe("de");
    expect(ACCEPT_LANGUAGE_MAX_LENGTH).toBeLessThanOrEqual(1024);
  });
});

describe("translate", () => {
  it("translates a literal and a pattern whose placeholder is a term", () => {
    expect(translate("Not found.", "de")).toBe("Nicht gefunden.");
    expect(translate("The new password must be at least 8 characters.", "fr")).toBe(
      "Le nouveau mot de passe doit contenir au moins 8 caractères.",
    );
    expect(translate("Too many attempts. Please wait 1 minute and try again.", "it")).toBe(
      "Troppi tentativi. Attendi 1 minuto e riprova.",
    );
  });

  it("keeps English, unknown messages and over-long messages as they are", () => {
    expect(translate("Not found.", "en")).toBe("Not found.");
    expect(translate("Something nobody wrote.", "de")).toBe("Something nobody wrote.");
    const long = `${"a".repeat(TRANSLATE_MAX_LENGTH)} has been created.`;
    expect(translate(long, "de")).toBe(long);
  });

  it("treats user text inside a message as text: regex characters and braces are not patterns", () => {
    expect(translate("Ma.*ria (x) has been created.", "de")).toBe("Ma.*ria (x) wurde erstellt.");
    expect(translate("{name} has been created.", "de")).toBe("{name} wurde erstellt.");
    // A key's "." is a dot, not "any character".
    expect(explain("Not foundX", "de").matched).toBe(false);
    // A number placeholder takes digits only.
    expect(
      explain("You have reached your limit of many messages for today. Upgrade your plan to chat more.", "de")
        .matched,
    ).toBe(false);
  });

  it("localises only an envelope's message", () => {
    const body = { success: 0, message: "Not found.", code: "not_found", data: { message: "Not found." } };
    expect(localiseEnvelope(body, "es")).toEqual({ ...body, message: "No encontrado." });
    const token = { text: "Not found." };
    expect(localiseEnvelope(token, "es")).toBe(token);
    expect(localiseEnvelope("Not found.", "es")).toBe("Not found.");
  });
});
