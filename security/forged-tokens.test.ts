import { createHash, createHmac, randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ADMIN_ROUTES } from "../server/modules/admin/admin.routes";
import { describeEachDatabase } from "../server/testing/api";
import { ScriptedLlm } from "../server/testing/fake-llm";
import {
  addPresetCharacter,
  contentCookieOf,
  createGroup,
  http,
  inBatches,
  PUBLIC_ROUTES,
  type RouteEntry,
  routeTable,
  type Session,
  sendMessage,
  setUser,
  signIn,
} from "./support/fixtures";
import { type ListeningApp, startListening } from "./support/server";

const base64url = (value: object | string) =>
  Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

/** A JWT naming `userId` as an admin, signed with `alg` (none: no signature). */
function forgedJwt(userId: string, alg: "none" | "HS256", key = "secret"): string {
  const header = base64url({ alg, typ: "JWT" });
  const payload = base64url({
    sub: userId,
    id: userId,
    userId,
    role: "admin",
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.now() / 1000) + 3600,
  });
  if (alg === "none") return `${header}.${payload}.`;
  const signature = createHmac("sha256", key).update(`${header}.${payload}`).digest("base64url");
  return `${header}.${payload}.${signature}`;
}

/** The same characters with upper and lower case swapped. */
const swapCase = (text: string) =>
  [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("");

describeEachDatabase("forged, stale and malformed bearer tokens on every protected route", (dialect) => {
  let t: ListeningApp;
  let a: Session;
  let characterId = "";
  let groupId = "";
  let secretMessage = "";
  /** Protected routes of the route table (HEAD included: it runs the GET route's hooks). */
  let protectedRoutes: RouteEntry[] = [];
  /** Authorization (and Cookie) headers that must never open a session, by name. */
  const attempts: Array<{ name: string; headers: Record<string, string> }> = [];

  beforeAll(async () => {
    t = await startListening({ dialect, llm: new ScriptedLlm(() => "Noted.") });
    a = await signIn(t.url);
    characterId = await addPresetCharacter(t.url, a.token, 0);
    const second = await addPresetCharacter(t.url, a.token, 1);
    groupId = await createGroup(t.url, a.token, [characterId, second]);
    secretMessage = `a secret of A ${randomBytes(4).toString("hex")}`;
    await sendMessage(t.url, a.token, characterId, secretMessage);

    const loggedOut = await signIn(t.url);
    await http(t.url, "POST", "/api/auth/logout", { token: loggedOut.token });
    const expired = await signIn(t.url);
    await t.db.db
      .updateTable("auth_tokens")
      .set({ expires_at: Date.now() - 60_000 })
      .where("user_id", "=", expired.userId)
      .execute();
    const blocked = await signIn(t.url);
    await setUser(t, blocked.userId, { blocked: 1 });
    const cookie = await contentCookieOf(t.url, a.token);
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

    attempts.push(
      { name: "no Authorization header", headers: {} },
      { name: "an empty bearer", headers: { authorization: "Bearer " } },
      { name: "the scheme alone", headers: { authorization: "Bearer" } },
      { name: "a random string", headers: bearer(randomBytes(32).toString("base64url")) },
      { name: "a JWT with alg none naming A as admin", headers: bearer(forgedJwt(a.userId, "none")) },
      { name: "a JWT signed HS256 with a guessed key", headers: bearer(forgedJwt(a.userId, "HS256")) },
      { name: "A's user id as the token", headers: bearer(a.userId) },
      {
        name: "the sha256 of A's token (what the database keeps)",
        headers: bearer(createHash("sha256").update(a.token).digest("hex")),
      },
      { name: "A's token with its case swapped", headers: bearer(swapCase(a.token)) },
      { name: "A's token with a character added", headers: bearer(`${a.token}x`) },
      { name: "A's token less its last character", headers: bearer(a.token.slice(0, -1)) },
      { name: "A's token followed by a space and more", headers: bearer(`${a.token} ${a.token}`) },
      { name: "A's token under the Basic scheme", headers: { authorization: `Basic ${a.token}` } },
      { name: "A's token with no scheme", headers: { authorization: a.token } },
      { name: "a logged-out session's token", headers: bearer(loggedOut.token) },
      { name: "an expired session's token", headers: bearer(expired.token) },
      { name: "a blocked account's token", headers: bearer(blocked.token) },
      { name: "A's content cookie as the bearer", headers: bearer(cookie.split("=")[1]!) },
      { name: "A's content cookie and no bearer", headers: { cookie } },
    );

    // HEAD kept (it runs the GET route's hooks). Outside /api/ are only the built SPA's files
    // (public) and /content/* (authorised by the cookie, attacked by the content tests).
    protectedRoutes = routeTable(t.app).filter(
      (r) =>
        r.url.startsWith("/api/") && !PUBLIC_ROUTES.has(`${r.method === "HEAD" ? "GET" : r.method} ${r.url}`),
    );
  });
  afterAll(async () => {
    await t?.dispose();
  });

  /** The route's URL with its parameters and every id-like query field naming A's things. */
  const target = (route: RouteEntry) => {
    const url = route.url.replace(":platform", "youtube").replace(/:\w+/g, a.userId);
    const query = new URLSearchParams({
      id: characterId,
      uid: a.userId,
      uId: a.userId,
      cId: characterId,
      gId: groupId,
      v: "English Female",
    });
    return `${url}?${query}`;
  };

  it("the route table is read and the protected routes include every admin route", () => {
    expect(protectedRoutes.length).toBeGreaterThan(40);
    const listed = new Set(protectedRoutes.map((r) => `${r.method} ${r.url}`));
    for (const admin of ADMIN_ROUTES) expect(listed).toContain(`${admin.method} ${admin.url}`);
    for (const route of [
      "POST /api/chat/message",
      "GET /api/characters/export",
      "DELETE /api/chat/memories",
    ]) {
      expect(listed).toContain(route);
    }
  });

  it("a valid token opens the protected routes (the 401s below are not vacuous)", async () => {
    const profile = await http(t.url, "GET", `/api/users/profile/?id=${a.userId}`, { token: a.token });
    expect(profile.status).toBe(200);
    const history = await http(t.url, "GET", `/api/chat/history?id=${characterId}`, { token: a.token });
    expect(history.raw.toString()).toContain(secretMessage);
  });

  it("every protected route answers 401 with the envelope to every forged, stale or malformed token", async () => {
    const failures: string[] = [];
    const tasks = protectedRoutes.flatMap((route) =>
      attempts.map((attempt) => async () => {
        const body =
          route.method === "GET" || route.method === "HEAD"
            ? {}
            : {
                form: {
                  id: characterId,
                  cId: characterId,
                  gId: groupId,
                  uid: a.userId,
                  message: "hello",
                  fname: "Mallory",
                  name: "mallory",
                  confirm: "1",
                },
              };
        const answer = await http(t.url, route.method, target(route), {
          ...body,
          headers: attempt.headers,
        });
        const where = `${route.method} ${route.url} with ${attempt.name}`;
        if (answer.status !== 401) {
          failures.push(`${where}: ${answer.status} ${answer.raw.toString().slice(0, 120)}`);
        } else if (route.method !== "HEAD" && answer.json.success !== 0) {
          failures.push(`${where}: 401 without the {success: 0} envelope: ${answer.raw.toString()}`);
        } else if (answer.raw.toString().includes(secretMessage)) {
          failures.push(`${where}: the answer carries A's message`);
        }
      }),
    );
    await inBatches(tasks, 8);
    expect(failures).toEqual([]);
  }, 120_000);

  it("a token in the query string or the body is not a session", async () => {
    const query = await http(t.url, "GET", `/api/users/profile/?token=${a.token}&access_token=${a.token}`);
    expect(query.status).toBe(401);
    const body = await http(t.url, "POST", "/api/chat/message", {
      form: { token: a.token, message: "hello", id: characterId },
    });
    expect(body.status).toBe(401);
    expect(body.json).toMatchObject({ success: 0 });
  });

  it("after the attacks A's data is unchanged and A's token still works", async () => {
    const history = await http(t.url, "GET", `/api/chat/history/paginated?id=${characterId}&limit=100`, {
      token: a.token,
    });
    const entries = history.json.data as Array<{ chatHistoryMessage: string }>;
    expect(
      entries.filter((e) => e.chatHistoryMessage !== "##first-message##").map((e) => e.chatHistoryMessage),
    ).toEqual([secretMessage]);
    const characters = await http(t.url, "GET", "/api/characters/list/", { token: a.token });
    expect((characters.json.data as unknown[]).length).toBe(2);
    const groups = await http(t.url, "GET", "/api/characters/group/list/", { token: a.token });
    expect((groups.json.data as unknown[]).length).toBe(1);
    const profile = await http(t.url, "GET", "/api/users/profile/", { token: a.token });
    expect(profile.json).toMatchObject({ success: 1, data: { chatCount: 1 } });
  });
});
