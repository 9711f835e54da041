// Recall's category lexicon: the common kinds of thing a user asks about ("hobbies", "countries", "pets") and the words their members go by.
import { lowerWords } from "./recall-terms";

/**
 * Members of common categories a companion chat's questions name by their head ("what sports does
 * she play?", "which countries has he been to?") while the chat named the members ("I'm doing
 * kickboxing", "my trip to Spain"): word search alone cannot join the two, so recall searches the
 * members too (categoryWords). Everyday English, a handful of typical members each; not a
 * thesaurus: only heads whose members are concrete and few enough to search.
 */
const GROUPS: ReadonlyArray<readonly [heads: string, members: string]> = [
  [
    "activity hobby pastime interest",
    "hiking camping swimming painting pottery reading cooking baking gardening yoga running dancing " +
      "photography fishing cycling kayaking surfing skiing climbing knitting drawing singing " +
      "volunteering gaming",
  ],
  [
    "sport exercise workout fitness athletic",
    "basketball football soccer tennis baseball hockey volleyball golf swimming running yoga pilates " +
      "kickboxing boxing karate gym cycling climbing surfing skiing marathon weightlifting",
  ],
  ["martial*", "karate judo kickboxing boxing taekwondo kungfu jiujitsu mma aikido wrestling"],
  [
    "country european* asian* nation",
    "france spain italy germany england uk ireland scotland greece portugal netherlands switzerland " +
      "japan china korea india thailand vietnam mexico canada brazil australia egypt turkey",
  ],
  [
    "city town",
    "paris london tokyo rome berlin madrid barcelona amsterdam chicago boston seattle miami york " +
      "angeles francisco vegas toronto vancouver sydney",
  ],
  [
    "place location spot trip vacation destination",
    "beach park mountains lake forest trail museum cafe library island coast city countryside " +
      "road trip flight",
  ],
  [
    "pet animal",
    "dog puppy cat kitten turtle fish bird parrot hamster rabbit bunny horse guinea lizard snake",
  ],
  [
    "food dish meal recipe cuisine snack dessert treat",
    "cake pie cookies cupcakes brownies muffins bread pasta pizza soup salad curry tacos chocolate " +
      "pancakes cream sushi burger stew lasagna",
  ],
  [
    "book author novel reading",
    "book novel read author series chapter library fantasy memoir poetry biography",
  ],
  ["movie film series tv show", "movie film watched series show cinema trilogy netflix documentary episode"],
  [
    "music musical band artist concert song singer album",
    "concert band song album singer guitar piano violin drums festival music playlist listen " + "rock jazz",
  ],
  ["instrument", "guitar piano violin drums ukulele flute saxophone cello trumpet keyboard bass harmonica"],
  ["game", "game games board chess cards console video tournament xbox playstation nintendo puzzle"],
  [
    "family relative parent sibling children* kid",
    "mom mother dad father sister brother son daughter kids husband wife grandma " +
      "grandmother grandpa grandfather aunt uncle cousin parents baby",
  ],
  ["friend", "friend buddy pal bestie classmate colleague neighbor"],
  [
    "job career work profession occupation",
    "job career work office promotion boss company hired interview business startup internship",
  ],
  ["gift present", "gift present gave bought birthday surprise necklace card flowers"],
  ["art artwork craft", "painting drawing sculpture pottery sketch canvas mural craft photography"],
  ["writing", "poem poetry story stories screenplay blog book novel journal article script letter"],
  [
    "event",
    "party festival concert parade fundraiser conference workshop race tournament meetup exhibit " +
      "ceremony wedding charity competition show",
  ],
  ["volunteer volunteering charity cause", "volunteer charity shelter donate fundraiser nonprofit community"],
  ["class course lesson", "class course lesson workshop lecture training school"],
];

/**
 * Most member words a category search takes, the most typical first (each group lists its members
 * so). Each costs PostgreSQL's ranking a column and widens the rows it reads: with 24, the search
 * on a 10 000-message chat took 20-23 ms at p95 (15 ms without the category search); with 16,
 * 17.7 ms, and the same recall on LoCoMo (bench/memory-recall.bench.ts).
 */
export const CATEGORY_WORDS_MAX = 16;

/** A head's plural as a question writes it: "hobbies", "classes", "countries", "pets". */
function plural(head: string): string {
  if (/[^aeiou]y$/.test(head)) return `${head.slice(0, -1)}ies`;
  if (/(s|sh|ch|x)$/.test(head)) return `${head}es`;
  return `${head}s`;
}

/**
 * Members by the word that asks for them: a head's plural ("hobbies"); its singular too, marked
 * `kind` (asks only after "kind of": "what kind of music"); a head written with `*` ("martial*",
 * "european*") is a word that asks in any form ("martial arts", "European countries").
 */
const MEMBERS_OF = new Map<string, { members: string[]; kind: boolean }>();
for (const [heads, members] of GROUPS) {
  const words = members.split(/\s+/);
  for (const written of heads.split(/\s+/)) {
    const head = written.replace("*", "");
    const forms: Array<[string, boolean]> = written.endsWith("*")
      ? [[head, false]]
      : [
          [head, true],
          [plural(head), false],
        ];
    for (const [form, kind] of forms) {
      const known = MEMBERS_OF.get(form);
      MEMBERS_OF.set(form, {
        members: [...(known?.members ?? []), ...words],
        kind: kind && (known?.kind ?? true),
      });
    }
  }
}

/** How far after the question word the asked thing may be ("what were Deborah's mother's hobbies": 6). */
const ASKED_WITHIN = 6;
/** Question words that "is" or "are" may follow before the asked thing. */
const QUESTION_WORDS = new Set(["what", "which"]);
/** Verbs that end the asked-for words ("what books has…", "which cities did…"). */
const AFTER_HEAD = new Set("has have had does do did is are was were would can could".split(" "));
/** Verbs that may stand between the question word and what it asks for ("what are her hobbies"). */
const COPULAS = new Set(["is", "are", "was", "were"]);

/** Words before a singular head that make a question ask for a category's members ("what kind of music"). */
const KIND_OF = new Set(["kind", "kinds", "type", "types", "sort", "sorts", "style", "styles"]);

/**
 * The category words of a question that asks for a category's members, as a list spanning the
 * chat does ("what activities…", "which countries…", "what kind of music…"): for each word that
 * heads a common category (GROUPS) in the plural, or in the singular after "kind of" (or type,
 * sort, style), its members as a chat would say them ("kickboxing", "Spain", "turtle"), each once,
 * without the question's own words, at most CATEGORY_WORDS_MAX. A singular head alone ("what book
 * did she recommend?") asks for one thing the question's words find. Recall searches the members
 * as a ranking of their own, fused with the query's (recall.service.ts; docs/features.md "Memory").
 * @param text the user's new message.
 * @returns member words (lower case, letters only); none when it names no category so.
 */
export function categoryWords(text: string): string[] {
  const words = lowerWords(text);
  const own = new Set(words);
  const found: string[] = [];
  words.forEach((word, i) => {
    const entry = MEMBERS_OF.get(word);
    if (!entry || !askedThing(words, i)) return;
    if (entry.kind && !(KIND_OF.has(words[i - 2] ?? "") && words[i - 1] === "of")) return;
    for (const member of entry.members) if (!own.has(member) && !found.includes(member)) found.push(member);
  });
  return found.slice(0, CATEGORY_WORDS_MAX);
}

/**
 * Whether the word at `at` is in what the question asks for: at most ASKED_WITHIN words after
 * "what", "which" or "how many", with no verb between but "is" or "are" right after the question
 * word ("what books has…", "what European countries…", "what are Joanna's hobbies"), not a word
 * further on ("what did Mel and her kids make?": the kids are not asked for).
 */
function askedThing(words: readonly string[], at: number): boolean {
  for (let i = at - 1; i >= 0 && at - i <= ASKED_WITHIN; i--) {
    const word = words[i]!;
    if (word === "what" || word === "which" || (word === "many" && words[i - 1] === "how")) return true;
    if (AFTER_HEAD.has(word) && !(COPULAS.has(word) && QUESTION_WORDS.has(words[i - 1] ?? ""))) return false;
  }
  return false;
}
