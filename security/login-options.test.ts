import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentCookieValue } from "../server/modules/content/content-access";
import { describeEachDatabase } from "../server/testing/api";
import { addPresetCharacter, contentCookieOf, signIn } from "./support/fixtures";
import { type ListeningApp, startListening } from "./support/server";

/**
 * Under attack: the public `GET /api/auth/oauth/platforms` (names only,
 * never configuration; no session needed, none granted; bounded), and the picture cookie that now
 * holds one grant per session of a browser (a forged or foreign grant next to a valid one opens
 * nothing, is never re-signed by the server, and the cookie stays bounded).
 */

const SECRET_VALUES = ["companion-client", "companion-secret", "127.0.0.1:9", "authorize", "token"];

describe("GET /api/auth/oauth/platforms tells names, nothing else", () => {
  let server: ListeningApp;
  beforeAll(async () => {
    server = await startListening({
      env: {
        RATE_LIMIT_ENABLED: "1",
        OAUTH_YOUTUBE_CLIENT_ID: "companion-client",
        OAUTH_YOUTUBE_CLIENT_SECRET: "companion-secret",
        OAUTH_YOUTUBE_AUTHORIZE_URL: "http://127.0.0.1:9/authorize",
        OAUTH_YOUTUBE_TOKEN_URL: "http://127.0.0.1:9/token",
        OAUTH_YOUTUBE_USERINFO_URL: "http://127.0.0.1:9/userinfo",
      },
    });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it("answers the platform names without a session, with no configuration and no cookie", async () => {
    for (const headers of [{}, { authorization: "Bearer not-a-token" }] as Array<Record<string, string>>) {
      const answer = await fetch(`${server.url}/api/auth/oauth/platforms?verbose=1&id=../..`, { headers });
      expect(answer.status).toBe(200);
      const text = await answer.text();
      expect(JSON.parse(text)).toEqual({
        success: 1,
        message: "Sign-in platforms.",
        data: { platforms: ["youtube"] },
      });
      for (const secret of SECRET_VALUES) expect(text).not.toContain(secret);
      expect(answer.headers.get("set-cookie")).toBeNull();
    }
  });

  it("takes no writes and is rate limited per client", async () => {
    const post = await fetch(`${server.url}/api/auth/oauth/platforms`, { method: "POST", body: "x" });
    expect(post.status).toBe(404);
    let limited = 0;
    for (let i = 0; i < 130; i += 1) {
      const answer = await fetch(`${server.url}/api/auth/oauth/platforms`);
      await answer.arrayBuffer();
      if (answer.status === 429) limited += 1;
    }
    expect(limited).toBeGreaterThan(0);
  });
});

describeEachDatabase("the picture cookie's grants of several sessions", (dialect) => {
  let server: ListeningApp;
  beforeAll(async () => {
    server = await startListening({ dialect, env: { CONTENT_SECRET: "issue-16-content-secret" } });
  });
  afterAll(async () => {
    await server?.dispose();
  });

  /** A real file in the chat's folder, so a 404 means refused, not missing. */
  const plant = async (chatKey: string) => {
    await server.storage.put(`${chatKey}/x.jpg`, Buffer.from("PRIVATE-PICTURE"));
    return `/content/${chatKey}/x.jpg`;
  };
  const grantsOf = (cookie: string) => decodeURIComponent(cookie.slice("chat_content=".length)).split("~");
  const get = (path: string, cookie: string) =>
    fetch(`${server.url}${path}`, { headers: { cookie } }).then(async (r) => {
      await r.arrayBuffer();
      return r.status;
    });

  it("a forged grant beside the attacker's own opens nothing and is not re-signed", async () => {
    const victim = await signIn(server.url);
    const victimFile = await plant(await addPresetCharacter(server.url, victim.token));
    expect(await get(victimFile, await contentCookieOf(server.url, victim.token))).toBe(200);
    const attacker = await signIn(server.url);
    const attackerCookie = await contentCookieOf(server.url, attacker.token);
    const [attackerGrant] = grantsOf(attackerCookie);
    const [userId, expires, session] = attackerGrant!.split(".");
    // The victim's id in the attacker's grant, with the attacker's signature or a made-up one.
    const forged = [
      `${victim.userId}.${expires}.${session}.${attackerGrant!.split(".")[3]}`,
      `${victim.userId}.${expires}.${session}.${"A".repeat(43)}`,
    ];
    expect(userId).toBe(attacker.userId);
    const smuggled = `chat_content=${[attackerGrant!, ...forged].map(encodeURIComponent).join("~")}`;
    expect(await get(victimFile, smuggled)).toBe(404);

    // The attacker's next API call: the answer's cookie holds valid grants only.
    const answer = await fetch(`${server.url}/api/chat/capabilities`, {
      headers: { authorization: `Bearer ${attacker.token}`, cookie: smuggled },
    });
    await answer.arrayBuffer();
    const set = answer.headers.get("set-cookie");
    if (set) {
      for (const grant of grantsOf(set.split(";")[0]!))
        expect(grant.startsWith(`${attacker.userId}.`)).toBe(true);
    }
  });

  it("a grant signed with another secret, or one of a logged-out session, is refused", async () => {
    const owner = await signIn(server.url);
    const file = await plant(await addPresetCharacter(server.url, owner.token));
    const cookie = await contentCookieOf(server.url, owner.token);
    expect(await get(file, cookie)).toBe(200);
    const [grant] = grantsOf(cookie);
    const [, expires, session] = grant!.split(".");
    const otherKey = contentCookieValue("another-secret", {
      userId: owner.userId,
      expiresAt: Number(expires),
      session: session!,
    });
    expect(await get(file, `chat_content=${encodeURIComponent(otherKey)}`)).toBe(404);
    await fetch(`${server.url}/api/auth/logout`, {
      method: "POST",
      headers: { authorization: `Bearer ${owner.token}` },
    }).then((r) => r.arrayBuffer());
    expect(await get(file, cookie)).toBe(404);
  });

  it("holds at most four sessions however many a browser signs in to", async () => {
    let jar = "";
    for (let i = 0; i < 6; i += 1) {
      const session = await signIn(server.url);
      const answer = await fetch(`${server.url}/api/chat/capabilities`, {
        headers: { authorization: `Bearer ${session.token}`, ...(jar ? { cookie: jar } : {}) },
      });
      await answer.arrayBuffer();
      jar = (answer.headers.get("set-cookie") ?? "").split(";")[0]!;
    }
    expect(grantsOf(jar)).toHaveLength(4);
    expect(jar.length).toBeLessThan(1200);
  });
});
