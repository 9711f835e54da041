import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

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
  // server/env.ts speaks to the operator at boot (English), not to users.
  const skip = [
    path.join(ROOT, "server/i18n"),
    path.join(ROOT, "server/env.ts"),
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
  const checker = program.getTypeChecker();
  const ours = (node: ts.Node) => {
    const file = node.getSourceFile().fileName;
    return file.startsWith(ROOT) && !file.includes("node_modules");
  };
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

  const numeric = (type: ts.Type): boolean =>
    type.isUnion()
      ? type.types.every(numeric)
      : (type.getFlags() & (ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike)) !== 0;
  const isNumber = (node: ts.Node) => numeric(checker.getTypeAtLocation(node));

  const nameOf = (node: ts.Expression): string => {
    if (ts.isIdentifier(node)) return node.text;
    if (ts.isPropertyAccessExpression(node)) return node.name.text;
    if (ts.isParenthesizedExpression(node)) return nameOf(node.expression);
    if (ts.isBinaryExpression(node)) return nameOf(node.left);
    if (ts.isCallExpression(node)) {
      const callee = nameOf(node.expression);
      const first = node.arguments[0];
      if (callee === "capitalize" && first) {
        const inner = nameOf(first);
        return inner.charAt(0).toUpperCase() + inner.slice(1);
      }
      return callee;
    }
    return "value";
  };

  const declarationsOf = (node: ts.Node): ts.Declaration[] => {
    let symbol = checker.getSymbolAtLocation(node);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    return (symbol?.declarations ?? []).filter(ours);
  };

  const returnsOf = (fn: ts.SignatureDeclaration, depth: number): string[] => {
    if (ts.isArrowFunction(fn) && !ts.isBlock(fn.body)) return texts(fn.body, depth);
    const body = (fn as ts.FunctionLikeDeclarationBase).body;
    if (!body) return [];
    const out: string[] = [];
    const visit = (node: ts.Node) => {
      if (ts.isReturnStatement(node) && node.expression) out.push(...texts(node.expression, depth));
      else if (!ts.isFunctionLike(node)) ts.forEachChild(node, visit);
    };
    ts.forEachChild(body, visit);
    return out;
  };

  const fromDeclaration = (decl: ts.Declaration, depth: number): string[] => {
    if (ts.isVariableDeclaration(decl) && decl.initializer) {
      const flags = ts.getCombinedNodeFlags(decl);
      return flags & ts.NodeFlags.Const ? texts(decl.initializer, depth) : [];
    }
    if (ts.isPropertyAssignment(decl)) return texts(decl.initializer, depth);
    if (ts.isPropertyDeclaration(decl) && decl.initializer) return texts(decl.initializer, depth);
    if (ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl)) return returnsOf(decl, depth);
    return [];
  };

  /** The keys an expression can evaluate to (empty when it is not a known text). */
  function texts(node: ts.Expression, depth = 0): string[] {
    if (depth > 4) return [];
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return texts(node.expression, depth);
    if (ts.isConditionalExpression(node))
      return [...texts(node.whenTrue, depth), ...texts(node.whenFalse, depth)];
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken.kind;
      if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken)
        return [...texts(node.left, depth), ...texts(node.right, depth)];
      return [];
    }
    if (ts.isTemplateExpression(node)) {
      let variants = [node.head.text];
      const used = new Map<string, number>();
      for (const span of node.templateSpans) {
        const e = span.expression;
        let pieces: string[];
        const branches = ts.isConditionalExpression(e)
          ? [...texts(e.whenTrue, depth + 1), ...texts(e.whenFalse, depth + 1)]
          : [];
        if (
          ts.isConditionalExpression(e) &&
          branches.length === 2 &&
          branches.every((b) => !b.includes("{"))
        ) {
          pieces = branches;
        } else {
          const base =
            isNumber(e) && !ts.isIdentifier(e) && !ts.isPropertyAccessExpression(e) ? "n" : nameOf(e);
          const count = (used.get(base) ?? 0) + 1;
          used.set(base, count);
          pieces = [`{${isNumber(e) ? "#" : ""}${count > 1 ? `${base}${count}` : base}}`];
        }
        variants = variants.flatMap((v) => pieces.map((p) => v + p + span.literal.text));
      }
      return variants;
    }
    if (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node)) {
      return declarationsOf(ts.isPropertyAccessExpression(node) ? node.name : node).flatMap((d) =>
        fromDeclaration(d, depth + 1),
      );
    }
    if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return returnsOf(node, depth + 1);
    if (ts.isCallExpression(node)) {
      return declarationsOf(node.expression).flatMap((d) =>
        ts.isFunctionDeclaration(d) ? returnsOf(d, depth + 1) : [],
      );
    }
    return [];
  }

  const extendsAppError = (node: ts.ClassLikeDeclaration) =>
    (node.heritageClauses ?? []).some((clause) =>
      clause.types.some((t) => t.expression.getText() === "AppError"),
    );

  const calleeName = (e: ts.LeftHandSideExpression) =>
    ts.isIdentifier(e) ? e.text : ts.isPropertyAccessExpression(e) ? e.name.text : "";

  for (const sourceFile of program.getSourceFiles()) {
    const file = sourceFile.fileName;
    if (!files.includes(path.resolve(file))) continue;
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const name = calleeName(node.expression);
        const index = MESSAGE_CALLS[name];
        const arg = index === undefined ? undefined : node.arguments[index];
        if (arg) add(messages, texts(arg), file);
        if (ZOD_RULES.has(name) && ts.isPropertyAccessExpression(node.expression) && node.arguments[1]) {
          add(messages, sentences(texts(node.arguments[1])), file);
        }
        const termIndex = TERM_CALLS[name];
        const termArg = termIndex === undefined ? undefined : node.arguments[termIndex];
        if (termArg) add(terms, texts(termArg), file);
      }
      if (ts.isNewExpression(node) && calleeName(node.expression) === "AppError" && node.arguments?.[1]) {
        add(messages, texts(node.arguments[1]), file);
      }
      // A subclass of AppError: the message its constructor passes up, and the arguments given
      // to a constructor parameter named `message` (`new LlmUnavailableError(this.message)`).
      if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.SuperKeyword &&
        node.arguments[1]
      ) {
        const owner = node.parent && ts.findAncestor(node, ts.isClassLike);
        if (owner && extendsAppError(owner)) add(messages, texts(node.arguments[1]), file);
      }
      if (ts.isNewExpression(node) && node.arguments) {
        const owner = declarationsOf(node.expression).find(ts.isClassLike);
        const ctor =
          owner && extendsAppError(owner) ? owner.members.find(ts.isConstructorDeclaration) : undefined;
        ctor?.parameters.forEach((parameter, i) => {
          const arg = node.arguments?.[i];
          if (arg && ts.isIdentifier(parameter.name) && parameter.name.text === "message")
            add(messages, texts(arg), file);
        });
      }
      if (ts.isShorthandPropertyAssignment(node) && node.name.text === "message") {
        const symbol = checker.getShorthandAssignmentValueSymbol(node);
        const found = (symbol?.declarations ?? []).filter(ours).flatMap((d) => fromDeclaration(d, 1));
        add(messages, sentences(found), file);
      }
      if (ts.isPropertyAssignment(node) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) {
        const inTermHolder =
          ts.isVariableDeclaration(node.parent.parent) && TERM_HOLDERS.has(node.parent.parent.name.getText());
        if (MESSAGE_PROPERTIES.has(node.name.text) && !inTermHolder)
          add(messages, sentences(texts(node.initializer)), file);
        if (TERM_PROPERTIES.has(node.name.text)) add(terms, texts(node.initializer), file);
      }
      // Default messages of the helpers themselves (`unauthorized(message = "...")`).
      if (
        ts.isParameter(node) &&
        node.initializer &&
        ts.isIdentifier(node.name) &&
        node.name.text === "message"
      ) {
        add(messages, texts(node.initializer), file);
      }
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && TERM_HOLDERS.has(node.name.text)) {
        const init = node.initializer;
        if (init && ts.isObjectLiteralExpression(init)) {
          for (const p of init.properties)
            if (ts.isPropertyAssignment(p)) add(terms, texts(p.initializer), file);
        }
      }
      if (ts.isFunctionDeclaration(node) && node.name && TERM_HOLDERS.has(node.name.text)) {
        add(terms, returnsOf(node, 0), file);
      }
      ts.forEachChild(node, visit);
    };
    visit(sourceFile);
  }
  for (const term of WAIT_TERMS) terms.set(term, new Set(["server/http/rate-limit.ts"]));
  return { messages, terms };
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
