import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/server";

/**
 * No GET changes data without declaring it: each GET that writes says so in its route config
 * (`config: GET_WRITES`, server/http/route-writes.ts) and is listed here with why. A new GET that
 * declares it and is not listed, or a listed one that does not declare it, fails.
 */
const GETS_THAT_WRITE: Record<string, string> = {
  "/api/chat/new": "New Chat (the spec's GET): deletes the chat's history and summary",
  "/api/chat/group/new": "the spec's GET: creates a group chat",
  "/api/chat/group/member/add": "the spec's GET: adds a member to a group",
  "/api/chat/group/member/remove": "the spec's GET: removes a member from a group",
  "/api/chat/history": "the first page stores the greeting, creates the session, clears unread check-ins",
  "/api/chat/history/paginated": "as /api/chat/history: greeting, session, unread check-ins",
  "/api/chat/history/photos": "creates the chat's session on first use",
  "/api/chat/recall": "creates the chat's session on first use",
  "/api/characters/voice/preview/": "stores the sample's audio file the first time it is asked for",
  "/api/admin/backups/:name/download": "writes the download's audit row",
  "/api/auth/oauth/:platform/start": "stores the sign-in's state (what the callback checks)",
};

describe("GET routes that write", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const gets = () => t.routes.filter((route) => route.method === "GET");

  it("walks the app's routes (the API's and the SPA's)", () => {
    const urls = gets().map((route) => route.url);
    expect(urls).toContain("/api/chat/history");
    expect(urls).toContain("/api/admin/users");
    expect(urls.length).toBeGreaterThan(50);
  });

  it("every GET declaring `writes` is listed, and every listed GET declares it", () => {
    const declaredNotListed = gets()
      .filter((route) => route.writes && !(route.url in GETS_THAT_WRITE))
      .map((route) => route.url);
    expect(declaredNotListed).toEqual([]);
    const listedNotDeclared = gets()
      .filter((route) => route.url in GETS_THAT_WRITE && !route.writes)
      .map((route) => route.url);
    expect(listedNotDeclared).toEqual([]);
  });

  it("lists only GET routes the app has", () => {
    const urls = new Set(gets().map((route) => route.url));
    expect(Object.keys(GETS_THAT_WRITE).filter((url) => !urls.has(url))).toEqual([]);
  });

  it("no other route declares `writes` (a POST, DELETE or PATCH writes by its method)", () => {
    expect(t.routes.filter((route) => route.method !== "GET" && route.writes)).toEqual([]);
  });
});
