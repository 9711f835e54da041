// Finding every person-facing message the server can send by reading its source, for the tests that check each catalogue has them all.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { TextEvaluator } from "./message-texts";

/**
 * Finds every person-facing message the server can send, by reading its source (the
 * key check of the catalogues). Used by the tests only (it loads the TypeScript compiler).
 *
 * A message is the text given to a helper that answers it (`ok`, `fail`, `badRequest`,
 * `notFound`, `forbidden`, `unauthorized`, `tooMany`, `new AppError`), a `message`, `error`,
 * `requiredMessage` or `formatMessage` property, or the sentence of a zod rule (`.min(n, "...")`).
 * Identifiers and property reads are followed to the constant or function they name; a template
 * becomes a pattern key, each `${...}` a placeholder named after its expression (`{name}` text,
 * `{#name}` a number); a conditional gives both branches.
 *
 * Terms are the words that placeholders carry and that are translated inside a sentence: the
 * fields in words of server/http/validate.ts and common/validation.ts ("the new password"), and
 * what a content refusal names ("Picture request").
 */
export interface ScannedMessages {
  /** Sentence keys, each with the files it comes from. */
  messages: Map<string, Set<string>>;
  /** Term keys, each with the files it comes from. */
  terms: Map<string, Set<string>>;
}

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Message helpers and the index of their message argument. */
const MESSAGE_CALLS: Record<string, number> = {
  ok: 0,
  fail: 0,
  badRequest: 0,
  notFound: 0,
  forbidden: 0,
  unauthorized: 0,
  tooMany: 0,
};
/** Zod rule methods whose second argument is the sentence. */
const ZOD_RULES = new Set(["min", "max", "length", "regex", "refine", "gte", "lte", "int"]);
/** Properties holding a sentence. */
const MESSAGE_PROPERTIES = new Set([
  "message",
  "error",
  "requiredMessage",
  "formatMessage",
  // common/validation.ts: a rule's sentences
  "required",
  "tooShort",
  "tooLong",
  "format",
  "notText",
]);
/** Properties and calls holding a term. */
const TERM_PROPERTIES = new Set(["label", "contentLabel"]);
const TERM_CALLS: Record<string, number> = { uuidField: 0, assertAllowedContent: 0, keyList: 1 };
/** Objects and functions whose strings are terms (server/http/validate.ts). */
const TERM_HOLDERS = new Set(["FIELD_WORDS", "fieldWords"]);

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "testing" && entry.name !== "node_modules") walk(full);
      } else if (/\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name)) out.push(full);
    }
  };
  walk(path.join(ROOT, "server"));
  walk(path.join(ROOT, "common"));
  // server/env.ts and env-backups.ts speak to the operator at boot (English), not to users.
  const skip = [
    path.join(ROOT, "server/i18n"),
    path.join(ROOT, "server/env.ts"),
    path.join(ROOT, "server/env-backups.ts"),
    path.join(ROOT, "server/cli"),
  ];
  return out.filter((f) => !skip.some((s) => f.startsWith(s)));
}

/** Keeps a key only if it has literal words (drops "{message}." and the like). */
const hasWords = (key: string) => /[A-Za-z]{2}/.test(key.replace(/\{#?\w+\}/g, ""));
/** A sentence has a space or ends like one: a bare word ("ok", "ready", "lost") is a state. */
const isSentence = (key: string) => /\s/.test(key.trim()) || /[.!?]$/.test(key);

/**
 * Terms no source line writes whole: the waits of a 429 ("Please wait 5 minutes and try again."),
 * written by server/http/rate-limit.ts `wait` and by @fastify/rate-limit (`after`).
 */
export const WAIT_TERMS = [
  "{#n} second",
  "{#n} seconds",
  "{#n} minute",
  "{#n} minutes",
  "{#n} hour",
  "{#n} hours",
] as const;

/** Where a file's keys go: sentences and terms, each with the file they come from. */
interface Found {
  message(keys: string[]): void;
  term(keys: string[]): void;
}

/**
 * Reads the server's and common/'s sources (tests and server/testing left out).
 * @returns the message and term keys found.
 */
export function scanMessages(): ScannedMessages {
  const files = sourceFiles();
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    resolveJsonModule: true,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
  });
  const ours = (node: ts.Node) => {
    const file = node.getSourceFile().fileName;
    return file.startsWith(ROOT) && !file.includes("node_modules");
  };
  const evaluator = new TextEvaluator(program.getTypeChecker(), ours);
  const messages = new Map<string, Set<string>>();
  const terms = new Map<string, Set<string>>();
  const add = (into: Map<string, Set<string>>, keys: string[], file: string) => {
    for (const key of keys) {
      if (!key.trim() || !hasWords(key) || (into === messages && !isSentence(key))) continue;
      const set = into.get(key) ?? new Set<string>();
      set.add(path.relative(ROOT, file));
      into.set(key, set);
    }
  };
  for (const sourceFile of program.getSourceFiles()) {
    const file = sourceFile.fileName;
    if (!files.includes(path.resolve(file))) continue;
    scanFile(sourceFile, evaluator, {
      message: (keys) => add(messages, keys, file),
      term: (keys) => add(terms, keys, file),
    });
  }
  for (const term of WAIT_TERMS) terms.set(term, new Set(["server/http/rate-limit.ts"]));
  return { messages, terms };
}

/** Whether a class extends AppError. */
const extendsAppError = (node: ts.ClassLikeDeclaration) =>
  (node.heritageClauses ?? []).some((clause) =>
    clause.types.some((t) => t.expression.getText() === "AppError"),
  );

/** The name a call or `new` calls: `f` of `f()` and `x.f()`. */
const calleeName = (e: ts.LeftHandSideExpression) =>
  ts.isIdentifier(e) ? e.text : ts.isPropertyAccessExpression(e) ? e.name.text : "";

/** Finds the sentences and terms of one source file (the kinds of message listed at the top). */
function scanFile(sourceFile: ts.SourceFile, ev: TextEvaluator, found: Found): void {
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node.expression);
      const index = MESSAGE_CALLS[name];
      const arg = index === undefined ? undefined : node.arguments[index];
      if (arg) found.message(ev.texts(arg));
      if (ZOD_RULES.has(name) && ts.isPropertyAccessExpression(node.expression) && node.arguments[1]) {
        found.message(sentences(ev.texts(node.arguments[1])));
      }
      const termIndex = TERM_CALLS[name];
      const termArg = termIndex === undefined ? undefined : node.arguments[termIndex];
      if (termArg) found.term(ev.texts(termArg));
    }
    if (ts.isNewExpression(node) && calleeName(node.expression) === "AppError" && node.arguments?.[1]) {
      found.message(ev.texts(node.arguments[1]));
    }
    // A subclass of AppError: the message its constructor passes up, and the arguments given
    // to a constructor parameter named `message` (`new LlmUnavailableError(this.message)`).
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.SuperKeyword &&
      node.arguments[1]
    ) {
      const owner = node.parent && ts.findAncestor(node, ts.isClassLike);
      if (owner && extendsAppError(owner)) found.message(ev.texts(node.arguments[1]));
    }
    if (ts.isNewExpression(node) && node.arguments) {
      const owner = ev.declarationsOf(node.expression).find(ts.isClassLike);
      const ctor =
        owner && extendsAppError(owner) ? owner.members.find(ts.isConstructorDeclaration) : undefined;
      ctor?.parameters.forEach((parameter, i) => {
        const arg = node.arguments?.[i];
        if (arg && ts.isIdentifier(parameter.name) && parameter.name.text === "message")
          found.message(ev.texts(arg));
      });
    }
    if (ts.isShorthandPropertyAssignment(node) && node.name.text === "message") {
      found.message(sentences(ev.shorthandTexts(node)));
    }
    if (ts.isPropertyAssignment(node) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) {
      const inTermHolder =
        ts.isVariableDeclaration(node.parent.parent) && TERM_HOLDERS.has(node.parent.parent.name.getText());
      if (MESSAGE_PROPERTIES.has(node.name.text) && !inTermHolder)
        found.message(sentences(ev.texts(node.initializer)));
      if (TERM_PROPERTIES.has(node.name.text)) found.term(ev.texts(node.initializer));
    }
    // Default messages of the helpers themselves (`unauthorized(message = "...")`).
    if (
      ts.isParameter(node) &&
      node.initializer &&
      ts.isIdentifier(node.name) &&
      node.name.text === "message"
    ) {
      found.message(ev.texts(node.initializer));
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && TERM_HOLDERS.has(node.name.text)) {
      const init = node.initializer;
      if (init && ts.isObjectLiteralExpression(init)) {
        for (const p of init.properties) if (ts.isPropertyAssignment(p)) found.term(ev.texts(p.initializer));
      }
    }
    if (ts.isFunctionDeclaration(node) && node.name && TERM_HOLDERS.has(node.name.text)) {
      found.term(ev.returnsOf(node, 0));
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
}

/**
 * The sentences among a property's or rule's texts: a bare word is a state, not a sentence
 * (`message: "ready"` of a provider's status, `error: "lost"`).
 */
function sentences(keys: string[]): string[] {
  return keys.filter(isSentence).map(asZodSentence);
}

/**
 * A zod rule's message as parseInput sends it (server/http/validate.ts `asSentence`): one that
 * starts in lower case is a fragment, sent after the field in words with a period.
 */
function asZodSentence(message: string): string {
  const text = message.trim();
  if (/^[A-Z{]/.test(text)) return /[.!?]$/.test(text) ? text : `${text}.`;
  return `{Field} ${text.replace(/[.!?]$/, "")}.`;
}
