// The prompt inspector's texts on the chat screen (web/locales/<lng>/chat.json, section `inspector`).
import type { PromptPartKind } from "../../../common/prompt-inspection";
import i18n, { lookups } from "../../i18n";

/**
 * The texts of the prompt inspector, looked up in the "chat" catalogue (section `inspector`)
 * each time one is read, so a language switch takes effect. `part` names a prompt part; the
 * functions take the numbers they show.
 */
export const inspectorTexts = lookups(
  "chat",
  "inspector.",
  [
    "prompt",
    "title",
    "close",
    "loading",
    "failed",
    "none",
    "partColumn",
    "tokensColumn",
    "total",
    "loreTitle",
    "loreNone",
    "loreConstant",
    "memoryTitle",
    "memoryNoSummary",
    "truncated",
    "recallTitle",
    "recallOff",
    "recallNoQuery",
    "recallNone",
    "recallMatchedPlain",
    "recallNeighbour",
    "recallByMeaning",
    "recallJump",
  ],
  {
    part: (kind: PromptPartKind) => i18n.t(`chat:inspector.parts.${kind}`),
    window: (prompt: number, window: number, reply: number) =>
      i18n.t("chat:inspector.window", { prompt, window, reply }),
    history: (kept: number, exchanges: number) => i18n.t("chat:inspector.history", { kept, exchanges }),
    loreKey: (key: string, fromEnd: number | undefined, foundIn: "message" | "lore" | undefined) =>
      foundIn === "lore"
        ? i18n.t("chat:inspector.loreKeyInLore", { key })
        : fromEnd === 0 || fromEnd === undefined
          ? i18n.t("chat:inspector.loreKeyNewest", { key })
          : i18n.t("chat:inspector.loreKeyOlder", { key, back: fromEnd }),
    loreSecondary: (key: string) => i18n.t("chat:inspector.loreSecondary", { key }),
    memoryFacts: (settled: number, recent: number) =>
      i18n.t("chat:inspector.memoryFacts", { settled, recent }),
    memorySummary: (chars: number) => i18n.t("chat:inspector.memorySummary", { chars }),
    recallQuery: (words: string) => i18n.t("chat:inspector.recallQuery", { words }),
    recallBudget: (used: number, budget: number, ms: number) =>
      i18n.t("chat:inspector.recallBudget", { used, budget, ms }),
    recallMatched: (terms: string) => i18n.t("chat:inspector.recallMatched", { terms }),
  },
);
