import { describe, expect, it } from "vitest";
import { RULES } from "../../common/validation";
import { fail } from "../http/envelope";
import { ACCEPT_LANGUAGE_MAX_LENGTH, pickLanguage } from "./language";
import { carry, english, msg, render } from "./messages";
import { localiseEnvelope } from "./translate";

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

describe("messages by id", () => {
  it("renders a message, and a message whose parameter is a term, in the language", () => {
    expect(render(msg("server.notFound"), "de")).toBe("Nicht gefunden.");
    expect(render(RULES.newPassword.messages.tooShort, "fr")).toBe(
      "Le nouveau mot de passe doit contenir au moins 8 caractères.",
    );
    const wait = msg("http.tooManyAttemptsWaitTry", { after: msg("wait.minute", { n: 1 }) });
    expect(render(wait, "it")).toBe("Troppi tentativi. Attendi 1 minuto e riprova.");
    expect(english(wait)).toBe("Too many attempts. Please wait 1 minute and try again.");
  });

  it("capitalises a term given to a capitalised placeholder, as English writes it", () => {
    const required = msg("http.required", { Field: msg("field.characterId") });
    expect(english(required)).toBe("The character id is required.");
    expect(render(RULES.email.messages.required, "de")).toBe("Die E-Mail-Adresse ist erforderlich.");
  });

  it("keeps English as the code's sentence; an unknown id reads as itself", () => {
    expect(render(msg("server.notFound"))).toBe("Not found.");
    expect(render({ id: "nobody.wroteThis" }, "de")).toBe("nobody.wroteThis");
  });

  it("treats user text inside a message as text: regex characters, braces and nesting stay as written", () => {
    const created = (name: string) => render(msg("characters.beenCreated", { name }), "de");
    expect(created("Ma.*ria (x)")).toBe("Ma.*ria (x) wurde erstellt.");
    expect(created("{name}")).toBe("{name} wurde erstellt.");
    expect(created("{{name}}")).toBe("{{name}} wurde erstellt.");
    expect(created("$t(server.notFound)")).toBe("$t(server.notFound) wurde erstellt.");
  });

  it("localises only an envelope's message, by the message value it carries", () => {
    const body = { ...fail(msg("server.notFound"), "not_found"), data: { message: "Not found." } };
    const carriedBody = carry(body, msg("server.notFound"));
    expect(localiseEnvelope(carriedBody, "es")).toEqual({ ...body, message: "No encontrado." });
    expect(localiseEnvelope(fail(msg("server.notFound"), "not_found"), "es").message).toBe("No encontrado.");
    expect(localiseEnvelope(carriedBody, "en")).toBe(carriedBody);
    const token = { text: "Not found." };
    expect(localiseEnvelope(token, "es")).toBe(token);
    expect(localiseEnvelope("Not found.", "es")).toBe("Not found.");
  });
});
