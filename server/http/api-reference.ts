// The route tables of docs/api.md, written from the OpenAPI document: one table a section (tag), in the document's tag order.
import { API_SECTIONS } from "./api-sections";

/** The parts of an OpenAPI operation the tables read. */
interface Operation {
  tags?: string[];
  description?: string;
  "x-who"?: string;
  "x-from"?: string;
  parameters?: Array<{ in: string; name: string; required?: boolean; description?: string }>;
  requestBody?: { content: Record<string, { schema?: ObjectSchema }> };
}

interface ObjectSchema {
  properties?: Record<string, { description?: string }>;
  required?: string[];
}

/** The markers in docs/api.md between which the route tables are written. */
export const ROUTES_START = "<!-- routes: written by `npm run api-docs` from docs/openapi.json -->";
export const ROUTES_END = "<!-- routes: end -->";

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");

/** One field: `name` (required) or `name?`, with its description in brackets; `?` before a query field. */
function field(name: string, required: boolean, description: string | undefined, query: boolean): string {
  const label = `\`${query ? "?" : ""}${name}${required ? "" : "?"}\``;
  return description ? `${label} (${description})` : label;
}

/** The Takes cell: the query's fields, then the body's (multipart when the route takes uploads). */
function takes(operation: Operation): string {
  const fields: string[] = [];
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === "query") {
      fields.push(field(parameter.name, parameter.required === true, parameter.description, true));
    }
  }
  const content = operation.requestBody?.content ?? {};
  const type = Object.keys(content)[0];
  const schema = type ? content[type]?.schema : undefined;
  const required = new Set(schema?.required ?? []);
  const body = Object.entries(schema?.properties ?? {}).map(([name, property]) =>
    field(name, required.has(name), property.description, false),
  );
  if (body.length > 0) fields.push(`${type?.startsWith("multipart/") ? "multipart " : ""}${body.join(", ")}`);
  return fields.length > 0 ? fields.join(", ") : "–";
}

/**
 * The "## Routes" tables of docs/api.md from an OpenAPI document: per section (the operation's
 * first tag, in the order of API_SECTIONS) a table of Method, Path (`:param` as Fastify writes it),
 * Who (`x-who`, else "public"), Takes (the query's and body's fields, `?` after an optional one),
 * Answers (the description) and From (`x-from`, else "ours"), then the section's note.
 * @throws Error when an operation has no tag or a tag that API_SECTIONS does not list.
 */
export function renderRouteTables(document: { paths: Record<string, Record<string, Operation>> }): string {
  const rows = new Map<string, string[]>(API_SECTIONS.map((section) => [section.name, []]));
  for (const [url, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const tag = operation.tags?.[0];
      const section = tag === undefined ? undefined : rows.get(tag);
      if (!section)
        throw new Error(`${method.toUpperCase()} ${url} has no section of docs/api.md (tags: ${tag})`);
      const path = url.replace(/\{(\w+)\}/g, ":$1");
      section.push(
        `| ${method.toUpperCase()} | \`${path}\` | ${cell(operation["x-who"] ?? "public")} | ${cell(takes(operation))} | ${cell(operation.description ?? "")} | ${cell(operation["x-from"] ?? "ours")} |`,
      );
    }
  }
  const parts = API_SECTIONS.map((section) => {
    const table = [
      "| Method | Path | Who | Takes | Answers | From |",
      "|---|---|---|---|---|---|",
      ...(rows.get(section.name) ?? []),
    ];
    return [`### ${section.name}`, table.join("\n"), section.note].filter(Boolean).join("\n\n");
  });
  return `${parts.join("\n\n")}\n`;
}

/**
 * docs/api.md with its route tables replaced by `tables`, between ROUTES_START and ROUTES_END.
 * @throws Error when the markers are missing.
 */
export function withRouteTables(markdown: string, tables: string): string {
  const start = markdown.indexOf(ROUTES_START);
  const end = markdown.indexOf(ROUTES_END);
  if (start < 0 || end < start) throw new Error("docs/api.md lacks the route markers");
  return `${markdown.slice(0, start + ROUTES_START.length)}\n\n${tables}\n${markdown.slice(end)}`;
}
