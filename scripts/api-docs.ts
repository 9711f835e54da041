// Writes docs/openapi.json and the route tables of docs/api.md from the routes' schemas (an app built on a scratch SQLite folder).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp } from "../server/app";
import { renderRouteTables, withRouteTables } from "../server/http/api-reference";
import { openApiText } from "../server/http/route-schemas";
import { testConfig } from "../server/testing/server";

const docs = path.resolve(import.meta.dirname, "../docs");
const dataDir = mkdtempSync(path.join(tmpdir(), "api-docs-"));
try {
  const built = await buildApp(testConfig(dataDir, ""));
  await built.app.ready();
  writeFileSync(path.join(docs, "openapi.json"), openApiText(built.app));
  const apiMd = path.join(docs, "api.md");
  const tables = renderRouteTables(built.app.swagger() as Parameters<typeof renderRouteTables>[0]);
  writeFileSync(apiMd, withRouteTables(readFileSync(apiMd, "utf8"), tables));
  await built.close();
  console.log("Wrote docs/openapi.json and the route tables of docs/api.md");
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
