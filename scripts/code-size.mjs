// Size limits of the source (docs/architecture.md, "Sizes"): files, route files and functions; and each file's header line.
// Usage: node scripts/code-size.mjs   prints each file or function over its limit; exits 1 if any.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import ts from "typescript";

/** Lines a source file may have. */
const FILE_LINES = 400;
/** Lines a route file (`*.routes.ts`) may have. */
const ROUTE_FILE_LINES = 150;
/** Lines one function may span, from its first line to its last. */
const FUNCTION_LINES = 120;

/** Source files: server, web and common code that ships (migrations included), not tests or test support. */
function sourceFiles() {
  const tracked = execFileSync("git", ["ls-files", "server", "web", "common"], { encoding: "utf8" }).split(
    "\n",
  );
  const untracked = execFileSync(
    "git",
    ["ls-files", "--others", "--exclude-standard", "server", "web", "common"],
    {
      encoding: "utf8",
    },
  ).split("\n");
  return [...new Set([...tracked, ...untracked])].filter(
    (file) =>
      /\.(ts|tsx)$/.test(file) &&
      !/\.test\.tsx?$/.test(file) &&
      !file.includes("/testing/") &&
      fs.existsSync(file),
  );
}

/** The name a function is known by, for the report. */
function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (parent && ts.isCallExpression(parent))
    return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return "(anonymous)";
}

const problems = [];
for (const file of sourceFiles()) {
  const text = fs.readFileSync(file, "utf8");
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  const limit = file.endsWith(".routes.ts") ? ROUTE_FILE_LINES : FILE_LINES;
  if (lines > limit) problems.push(`${file}: ${lines} lines (limit ${limit})`);
  // A source file opens with one comment line saying what it holds (type declarations excepted).
  if (!file.endsWith(".d.ts") && !text.startsWith("// ")) {
    problems.push(`${file}: no header line (a first line "// <what this file holds>")`);
  }
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (end - start + 1 > FUNCTION_LINES)
        problems.push(
          `${file}:${start + 1}: function ${nameOf(node)} is ${end - start + 1} lines (limit ${FUNCTION_LINES})`,
        );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
for (const problem of problems) console.log(problem);
if (problems.length > 0) process.exit(1);
console.log("code size: every file and function within its limit, every file with its header line");
