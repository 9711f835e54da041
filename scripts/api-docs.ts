// Writes docs/openapi.json from the routes' schemas: an app is built on a scratch SQLite folder and its OpenAPI document written.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp } from "../server/app";
import { openApiText } from "../server/http/route-schemas";
import { testConfig } from "../server/testing/server";

const dataDir = mkdtempSync(path.join(tmpdir(), "api-docs-"));
try {
  const built = await buildApp(testConfig(dataDir, ""));
  await built.app.ready();
  const target = path.resolve(import.meta.dirname, "../docs/openapi.json");
  writeFileSync(target, openApiText(built.app));
  await built.close();
  console.log(`Wrote ${path.relative(process.cwd(), target)}`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
