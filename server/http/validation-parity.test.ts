import { describe, expect, it } from "vitest";
import { z } from "zod";
import { checkText, EMAIL_PATTERN, RULES, type TextRule } from "../../common/validation";
import { english } from "../i18n/messages";
import { EmailField, parseInput, textField } from "./validate";

/**
 * The browser's `checkText` and the server's `textField` apply one rule
 * (common/validation.ts): for every rule and a spread of values, both refuse the same values
 * with the same sentence and accept the same values.
 */
function serverVerdict(field: z.ZodType, value: unknown): string | null {
  try {
    parseInput(z.object({ f: field }), { f: value });
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

const samples = (rule: TextRule): string[] => [
  "",
  "   ",
  "a",
  " padded ",
  "x".repeat(rule.min ?? 2),
  "x".repeat(Math.max(0, (rule.min ?? 2) - 1)),
  "x".repeat(rule.max),
  "x".repeat(rule.max + 1),
  ` ${"x".repeat(rule.max)} `,
  "ann@example.com",
  "ann@example",
  "9.99",
  "12345.678",
  "price_abc",
];

describe("browser and server apply the same rules", () => {
  for (const [name, rule] of Object.entries(RULES) as Array<[string, TextRule]>) {
    it(`${name}: same verdict and sentence for every sample`, () => {
      const field = rule.required ? textField(rule) : textField(rule).optional();
      for (const value of samples(rule)) {
        const problem = checkText(rule, value);
        expect(serverVerdict(field, value), `${name} ${JSON.stringify(value)}`).toBe(
          problem === null ? null : english(problem),
        );
      }
    });
  }

  it("the e-mail field lower-cases and checks like the browser", () => {
    expect(parseInput(z.object({ email: EmailField }), { email: " Ann@Example.COM " })).toEqual({
      email: "ann@example.com",
    });
    for (const value of ["a@b.co", "a.b@c.de", "a..b@c.de", ".a@b.co", "a@b", "a@-b.co", "a b@c.de"]) {
      expect(EMAIL_PATTERN.test(value), value).toBe(z.email().safeParse(value).success);
    }
  });

  it("every sentence starts with a capital and ends with a full stop or the spec's '!'", () => {
    for (const rule of Object.values(RULES) as TextRule[]) {
      for (const sentence of Object.values(rule.messages)) expect(english(sentence)).toMatch(/^[A-Z].*[.!]$/);
    }
  });
});
