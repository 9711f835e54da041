// The committed OpenAPI document is the one the routes make, and every API route declares what it takes.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/server";
import { renderRouteTables, withRouteTables } from "./api-reference";
import { openApiText } from "./route-schemas";

const COMMITTED = path.resolve(import.meta.dirname, "../../docs/openapi.json");
const API_MD = path.resolve(import.meta.dirname, "../../docs/api.md");

describe("the OpenAPI document", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.ready();
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("matches docs/openapi.json (run `npm run api-docs` after changing a route's schema)", () => {
    expect(openApiText(t.app)).toBe(readFileSync(COMMITTED, "utf8"));
  });

  it("writes docs/api.md's route tables (run `npm run api-docs`)", () => {
    const markdown = readFileSync(API_MD, "utf8");
    const tables = renderRouteTables(t.app.swagger() as Parameters<typeof renderRouteTables>[0]);
    expect(withRouteTables(markdown, tables)).toBe(markdown);
  });

  it("lists every API route but itself", () => {
    const document = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const documented = new Set(
      Object.entries(document.paths).flatMap(([url, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${url}`),
      ),
    );
    const routes = t.routes
      .filter((route) => route.url.startsWith("/api/") && route.url !== "/api/openapi.json")
      .filter((route) => route.url !== "/api/*")
      .map((route) => `${route.method} ${route.url.replace(/:(\w+)/g, "{$1}")}`);
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.filter((route) => !documented.has(route))).toEqual([]);
  });

  it("serves the document at /api/openapi.json", async () => {
    const answer = await t.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().paths["/api/chat/edit"].post.requestBody).toBeDefined();
  });
});
