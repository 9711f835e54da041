// The message keys a TypeScript expression of the server's source can evaluate to: literals, templates as patterns, and what the constants and functions it names return.
import ts from "typescript";

/** Whether a type is a number (a union: all of its members). */
function numeric(type: ts.Type): boolean {
  return type.isUnion()
    ? type.types.every(numeric)
    : (type.getFlags() & (ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike)) !== 0;
}

/**
 * Evaluates expressions to message keys with a program's type checker (message-scan.ts has the
 * key format): identifiers and property reads are followed to the constant or function they name
 * (at most 4 steps deep); only declarations that `ours` accepts are followed.
 */
export class TextEvaluator {
  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly ours: (node: ts.Node) => boolean,
  ) {}

  /** Whether the expression is a number (a `{#name}` placeholder). */
  isNumber(node: ts.Node): boolean {
    return numeric(this.checker.getTypeAtLocation(node));
  }

  /** The placeholder name of an expression: the name it reads or calls ("value" when none). */
  nameOf(node: ts.Expression): string {
    if (ts.isIdentifier(node)) return node.text;
    if (ts.isPropertyAccessExpression(node)) return node.name.text;
    if (ts.isParenthesizedExpression(node)) return this.nameOf(node.expression);
    if (ts.isBinaryExpression(node)) return this.nameOf(node.left);
    if (ts.isCallExpression(node)) {
      const callee = this.nameOf(node.expression);
      const first = node.arguments[0];
      if (callee === "capitalize" && first) {
        const inner = this.nameOf(first);
        return inner.charAt(0).toUpperCase() + inner.slice(1);
      }
      return callee;
    }
    return "value";
  }

  /** The declarations (in our sources) of what `node` names, through imports. */
  declarationsOf(node: ts.Node): ts.Declaration[] {
    let symbol = this.checker.getSymbolAtLocation(node);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    return (symbol?.declarations ?? []).filter(this.ours);
  }

  /** The keys a function returns (its return statements; nested functions left out). */
  returnsOf(fn: ts.SignatureDeclaration, depth: number): string[] {
    if (ts.isArrowFunction(fn) && !ts.isBlock(fn.body)) return this.texts(fn.body, depth);
    const body = (fn as ts.FunctionLikeDeclarationBase).body;
    if (!body) return [];
    const out: string[] = [];
    const visit = (node: ts.Node) => {
      if (ts.isReturnStatement(node) && node.expression) out.push(...this.texts(node.expression, depth));
      else if (!ts.isFunctionLike(node)) ts.forEachChild(node, visit);
    };
    ts.forEachChild(body, visit);
    return out;
  }

  /** The keys a declaration holds: a const's value, a property's, what a function returns. */
  fromDeclaration(decl: ts.Declaration, depth: number): string[] {
    if (ts.isVariableDeclaration(decl) && decl.initializer) {
      const flags = ts.getCombinedNodeFlags(decl);
      return flags & ts.NodeFlags.Const ? this.texts(decl.initializer, depth) : [];
    }
    if (ts.isPropertyAssignment(decl)) return this.texts(decl.initializer, depth);
    if (ts.isPropertyDeclaration(decl) && decl.initializer) return this.texts(decl.initializer, depth);
    if (ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl)) return this.returnsOf(decl, depth);
    return [];
  }

  /** The keys of the value a shorthand property (`{ message }`) takes. */
  shorthandTexts(node: ts.ShorthandPropertyAssignment): string[] {
    const symbol = this.checker.getShorthandAssignmentValueSymbol(node);
    return (symbol?.declarations ?? []).filter(this.ours).flatMap((d) => this.fromDeclaration(d, 1));
  }

  /** The keys an expression can evaluate to (empty when it is not a known text). */
  texts(node: ts.Expression, depth = 0): string[] {
    if (depth > 4) return [];
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node))
      return this.texts(node.expression, depth);
    if (ts.isConditionalExpression(node))
      return [...this.texts(node.whenTrue, depth), ...this.texts(node.whenFalse, depth)];
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken.kind;
      if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken)
        return [...this.texts(node.left, depth), ...this.texts(node.right, depth)];
      return [];
    }
    if (ts.isTemplateExpression(node)) return this.templateTexts(node, depth);
    if (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node)) {
      return this.declarationsOf(ts.isPropertyAccessExpression(node) ? node.name : node).flatMap((d) =>
        this.fromDeclaration(d, depth + 1),
      );
    }
    if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return this.returnsOf(node, depth + 1);
    if (ts.isCallExpression(node)) {
      return this.declarationsOf(node.expression).flatMap((d) =>
        ts.isFunctionDeclaration(d) ? this.returnsOf(d, depth + 1) : [],
      );
    }
    return [];
  }

  /**
   * A template's keys: each `${...}` a placeholder named after its expression (numbered when a
   * name repeats), or both texts of a conditional between two plain strings.
   */
  private templateTexts(node: ts.TemplateExpression, depth: number): string[] {
    let variants = [node.head.text];
    const used = new Map<string, number>();
    for (const span of node.templateSpans) {
      const e = span.expression;
      let pieces: string[];
      const branches = ts.isConditionalExpression(e)
        ? [...this.texts(e.whenTrue, depth + 1), ...this.texts(e.whenFalse, depth + 1)]
        : [];
      if (ts.isConditionalExpression(e) && branches.length === 2 && branches.every((b) => !b.includes("{"))) {
        pieces = branches;
      } else {
        const base =
          this.isNumber(e) && !ts.isIdentifier(e) && !ts.isPropertyAccessExpression(e) ? "n" : this.nameOf(e);
        const count = (used.get(base) ?? 0) + 1;
        used.set(base, count);
        pieces = [`{${this.isNumber(e) ? "#" : ""}${count > 1 ? `${base}${count}` : base}}`];
      }
      variants = variants.flatMap((v) => pieces.map((p) => v + p + span.literal.text));
    }
    return variants;
  }
}
