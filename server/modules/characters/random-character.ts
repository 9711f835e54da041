// Random characters (product.md §4): a new companion asked of the language model, or composed from curated parts.
import { randomInt } from "node:crypto";
import type { LlmProvider } from "../../providers/llm/llm";

/** A character composed at random: the fields of the character form. */
export interface RandomCharacter {
  name: string;
  sex: "0" | "1";
  backstory: string;
  greeting: string;
  appearance: string;
}

const pick = <T>(list: readonly T[]): T => list[randomInt(list.length)]!;

const NAMES = {
  "0": ["Ava", "Chloe", "Elena", "Hana", "Iris", "Jade", "Lea", "Maya", "Nora", "Rosa", "Sara", "Zoe"],
  "1": ["Adam", "Caleb", "Diego", "Felix", "Hugo", "Jonas", "Kai", "Liam", "Mateo", "Noah", "Oscar", "Ryan"],
} as const;
const AGES = [22, 24, 25, 27, 28, 30, 31, 33];
const JOBS = [
  "a marine biologist who studies coral reefs",
  "a pastry chef with a tiny bakery by the harbour",
  "a violinist in a city orchestra",
  "a wildlife photographer who travels for months at a time",
  "a nurse on the night shift",
  "a bookshop owner who writes poetry in secret",
  "a game designer building a cosy farming game",
  "a climbing instructor",
  "an architecture student obsessed with old bridges",
  "a radio host of a late-night music show",
];
const TRAITS = [
  "warm and teasing, quick to laugh",
  "calm and thoughtful, a wonderful listener",
  "curious about everything and full of questions",
  "adventurous and a little reckless",
  "shy at first, then surprisingly funny",
  "kind, honest and fiercely loyal",
];
const HOBBIES = [
  "collects vinyl records",
  "grows tomatoes on a tiny balcony",
  "runs at sunrise every day",
  "paints watercolours of rainy streets",
  "cooks recipes from a different country every week",
  "stargazes whenever the sky is clear",
];
const GREETINGS = [
  "Hey {{user}}! I was hoping you'd show up. How was your day?",
  "Oh, hi {{user}}! Perfect timing, I just made some tea. What's new?",
  "{{user}}! There you are. Tell me something good that happened today.",
  "Hi {{user}}, I've been thinking about our last chat. What are you up to?",
];
const APPEARANCES = {
  "0": [
    "Long wavy hair, freckles, green eyes",
    "Short black bob, bright red lipstick",
    "Curly brown hair, warm smile",
  ],
  "1": [
    "Short dark hair, light stubble, brown eyes",
    "Messy blond hair, sun-tanned",
    "Neat beard, round glasses",
  ],
} as const;

/**
 * A character from curated parts, for when no language model is available.
 * @param takenNames names the user's characters already have (any case): avoided while others are
 *   left, so a chat sidebar never shows two companions of the same name.
 */
export function composeRandomCharacter(takenNames: ReadonlySet<string> = new Set()): RandomCharacter {
  const sex = pick(["0", "1"] as const);
  const free = NAMES[sex].filter((n) => !takenNames.has(n.toLowerCase()));
  const name = pick(free.length > 0 ? free : NAMES[sex]);
  const backstory = `${name} is ${pick(AGES)} years old and works as ${pick(JOBS)}. ${name} is ${pick(TRAITS)} and ${pick(HOBBIES)}.`;
  return { name, sex, backstory, greeting: pick(GREETINGS), appearance: pick(APPEARANCES[sex]) };
}

/**
 * Asks the language model for a new companion as JSON; falls back to curated parts when the model
 * is not ready, fails, or answers something that is not a usable character (or a name in use).
 * @param takenNames lower-cased names of the user's existing characters.
 */
export async function createRandomCharacter(
  llm: LlmProvider,
  takenNames: ReadonlySet<string> = new Set(),
): Promise<RandomCharacter> {
  const fallback = composeRandomCharacter(takenNames);
  if (!llm.status().ready) return fallback;
  try {
    const result = await llm.generate({
      messages: [
        {
          role: "system",
          content:
            'You invent companion characters for a chat app. Answer with one JSON object only: {"name": string, "sex": "female" or "male", "backstory": string (2-4 sentences), "greeting": string (one friendly line that may use {{user}}), "appearance": string (under 100 characters)}.',
        },
        {
          role: "user",
          content: `Invent a new, original ${fallback.sex === "0" ? "female" : "male"} companion character.`,
        },
      ],
      maxTokens: 300,
      temperature: 1,
    });
    const json = /\{[\s\S]*\}/.exec(result.text)?.[0];
    if (!json) return fallback;
    const parsed = JSON.parse(json) as Record<string, unknown>;
    const text = (v: unknown, max: number) => (typeof v === "string" ? v.trim().slice(0, max) : "");
    const name = text(parsed.name, 50);
    const backstory = text(parsed.backstory, 2000);
    if (!name || backstory.length < 20 || takenNames.has(name.toLowerCase())) return fallback;
    return {
      name,
      sex: /^m/i.test(text(parsed.sex, 10)) ? "1" : /^f/i.test(text(parsed.sex, 10)) ? "0" : fallback.sex,
      backstory,
      greeting: text(parsed.greeting, 800) || fallback.greeting,
      appearance: text(parsed.appearance, 100),
    };
  } catch {
    return fallback;
  }
}
