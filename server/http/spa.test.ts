import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/server";

/** The SPA fallback (product.md §2 routes are client-side): GET and HEAD of a route answer index.html. */
describe("SPA fallback", () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), "spa-test-"));
    fs.writeFileSync(path.join(webDir, "index.html"), "<!doctype html><title>Companion</title>");
    t = await createTestApp({ env: { WEB_DIST_DIR: webDir } });
  });
  afterAll(async () => {
    await t?.dispose();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it("answers GET of a client-side route with index.html", async () => {
    const page = await t.app.inject({ method: "GET", url: "/login/demo" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain("<title>Companion</title>");
  });

  it("answers HEAD of a client-side route like GET, without a body (link checkers, uptime probes)", async () => {
    const head = await t.app.inject({ method: "HEAD", url: "/login" });
    expect(head.statusCode).toBe(200);
    expect(head.headers["content-type"]).toContain("text/html");
    expect(head.body).toBe("");
  });

  it("keeps the API's 404 envelope for unknown API paths, HEAD included", async () => {
    const api = await t.app.inject({ method: "HEAD", url: "/api/nothing-here" });
    expect(api.statusCode).toBe(404);
  });
});
