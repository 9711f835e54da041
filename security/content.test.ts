import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../server/testing/api";
import { type RawResponse, rawRequest } from "./support/raw-http";
import { type ListeningApp, startListening } from "./support/server";

/**
 * Attacked over a real socket: a chat's private pictures under
 * /content/{character or group id}/ are served to their owner's browser only, whatever spelling
 * of the path reaches the server (double slashes, dot segments, percent escapes, encoded
 * separators), and the picture cookie dies with the session it came from (logout, password
 * change, admin block). Public content stays public and cacheable.
 */

interface Member {
  token: string;
  userId: string;
  characterId: string;
  /** `chat_content=<value>`, as the API set it. */
  cookie: string;
}

describeEachDatabase("private content", (dialect) => {
  let server: ListeningApp;
  let owner: Member;
  let stranger: Member;
  const photo = Buffer.concat([Buffer.from("PRIVATE-PHOTO-"), randomBytes(64)]);
  const picture = Buffer.concat([Buffer.from("PRIVATE-PICTURE-"), randomBytes(64)]);

  /** Calls the API over HTTP with a form body. @returns the JSON answer and the content cookie set. */
  const api = async (
    method: string,
    url: string,
    options: { token?: string; form?: Record<string, string> },
  ) => {
    const response = await fetch(`${server.url}${url}`, {
      method,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body: options.form ? new URLSearchParams(options.form).toString() : undefined,
    });
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(";")[0]!)
      .find((pair) => pair.startsWith("chat_content=") && pair !== "chat_content=");
    return { status: response.status, body: (await response.json()) as Record<string, unknown>, cookie };
  };

  /** Confirms age, creates a character from the first preset. @returns the member with its cookie. */
  const withCharacter = async (token: string, userId: string): Promise<Member> => {
    await api("POST", "/api/users/confirm-age", { token, form: { confirm: "1" } });
    const presets = await api("GET", "/api/characters/selection", { token });
    const preset = (presets.body.data as Array<{ characterPreDefinedUUID: string }>)[0]!;
    await api("POST", "/api/characters/create-preselect", {
      token,
      form: { id: preset.characterPreDefinedUUID },
    });
    const list = await api("GET", "/api/characters/list/", { token });
    const characterId = (list.body.data as Array<{ characterUUID: string }>)[0]!.characterUUID;
    if (!list.cookie) throw new Error("the API set no chat_content cookie");
    return { token, userId, characterId, cookie: list.cookie };
  };

  const demo = async (): Promise<Member> => {
    const signIn = await api("POST", "/api/auth/demo-login", { form: { id: "demo" } });
    const data = signIn.body.data as { token: string; user: { id: string } };
    return withCharacter(data.token, data.user.id);
  };

  /**
   * Stores the two private files of a chat, as the image worker and photo upload do, through the
   * app's storage (local disk, or S3 on the shared stack).
   */
  const plantFiles = async (characterId: string) => {
    await server.storage.put(`${characterId}/user_photo/x.jpg`, photo);
    await server.storage.put(`${characterId}/pic.jpg`, picture);
  };
  /** The stored bytes at `key`. @throws Error when nothing is stored there. */
  const stored = async (key: string) => {
    const bytes = await server.storage.read(key);
    if (!bytes) throw new Error(`nothing stored at ${key}`);
    return bytes;
  };
  /** The name of the first stored file under the folder `prefix`. */
  const firstName = async (prefix: string) => (await server.storage.list(prefix))[0]?.split("/").at(-1);

  const get = (target: string, cookie?: string, method = "GET") =>
    rawRequest(server.url, method, target, { headers: cookie ? { cookie } : {} });

  /** A refusal: 404 (or 400 for a malformed path) and not a byte of either private file. */
  const expectRefused = (response: RawResponse, target: string) => {
    expect([400, 404], `${target} answered ${response.status}`).toContain(response.status);
    for (const secret of [photo, picture]) {
      expect(response.body.includes(secret.subarray(0, 24)), `${target} leaked a private file`).toBe(false);
    }
  };

  beforeAll(async () => {
    server = await startListening({ dialect });
    owner = await demo();
    stranger = await demo();
    await plantFiles(owner.characterId);
  });
  afterAll(() => server.dispose());

  /** Every spelling of the owner's two private files that a path normaliser may turn into them. */
  const attacks = (id: string) => {
    const encodedFirst = `%${id.charCodeAt(0).toString(16)}${id.slice(1)}`;
    const allEncoded = [...id].map((c) => `%${c.charCodeAt(0).toString(16)}`).join("");
    return [
      `/content//${id}/user_photo/x.jpg`,
      `/content///${id}/pic.jpg`,
      `/content/./${id}/user_photo/x.jpg`,
      `/content/././${id}/pic.jpg`,
      `/content/${id}//pic.jpg`,
      `/content/${id}/./pic.jpg`,
      `/%63ontent/${id}/user_photo/x.jpg`,
      `/%63%6f%6e%74%65%6e%74/${id}/pic.jpg`,
      `/content/${encodedFirst}/pic.jpg`,
      `/content/${allEncoded}/user_photo/x.jpg`,
      `/content/${id.toUpperCase()}/pic.jpg`,
      `/content/${id}%2Fpic.jpg`,
      `/content/${id}%2fuser_photo%2fx.jpg`,
      `/content%2F${id}%2Fpic.jpg`,
      `/content/users/../${id}/pic.jpg`,
      `/content/users/%2e%2e/${id}/pic.jpg`,
      `/content/users/..%2F${id}%2Fpic.jpg`,
      `/content/users/..%5C${id}%5Cpic.jpg`,
      `/content/x/y/../../${id}/user_photo/x.jpg`,
      `/content/${id}/user_photo/../pic.jpg`,
      `/content/%2e/${id}/pic.jpg`,
      `/content/.%2F${id}/pic.jpg`,
      `/content/${id}/pic.jpg%00`,
      `/content/${id}/pic.jpg%00.png`,
      `/content/${id}/pic.jpg?download=1`,
      `/content/${id}/pic.jpg/`,
      `/content/${id}/user_photo/`,
      `/content/${id}/`,
      `${server.url}/content/${id}/pic.jpg`,
    ];
  };

  it("refuses every spelling of a private file without the owner's cookie, with no file bytes", async () => {
    for (const target of attacks(owner.characterId)) {
      expectRefused(await get(target), target);
      expectRefused(await get(target, stranger.cookie), target);
      expectRefused(await get(target, undefined, "HEAD"), `HEAD ${target}`);
    }
  });

  it("with the owner's cookie a spelling serves exactly the file its normalised path names, or nothing", async () => {
    const files = new Map([
      ["x.jpg", photo],
      ["pic.jpg", picture],
    ]);
    const served: string[] = [];
    for (const target of attacks(owner.characterId)) {
      const answer = await get(target, owner.cookie);
      if (answer.status !== 200) {
        expectRefused(answer, target);
        continue;
      }
      served.push(target);
      const name = answer.headers["content-disposition"]?.match(/filename="([^"]+)"/)?.[1] ?? "";
      expect(answer.body.equals(files.get(name) ?? Buffer.alloc(0)), target).toBe(true);
      expect(answer.headers["cache-control"], target).toBe("private, no-store");
    }
    // The harmless spellings (double slashes, dot segments, escaped letters) reach the owner's file.
    expect(served).toContain(`/content//${owner.characterId}/user_photo/x.jpg`);
    expect(served).toContain(`/%63ontent/${owner.characterId}/user_photo/x.jpg`);
    // Encoded separators, NUL, an upper-case id, a trailing slash and absolute-form never do.
    for (const refused of [
      `/content/${owner.characterId}%2Fpic.jpg`,
      `/content/${owner.characterId}/pic.jpg%00`,
      `/content/${owner.characterId.toUpperCase()}/pic.jpg`,
      `/content/${owner.characterId}/pic.jpg/`,
      `${server.url}/content/${owner.characterId}/pic.jpg`,
    ]) {
      expect(served).not.toContain(refused);
    }
    const head = await get(`/content/${owner.characterId}/pic.jpg`, owner.cookie, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String(picture.length));
  });

  it("serves the canonical URL to the owner, private and inline; another user's cookie gets 404", async () => {
    for (const [target, bytes, name] of [
      [`/content/${owner.characterId}/user_photo/x.jpg`, photo, "x.jpg"],
      [`/content/${owner.characterId}/pic.jpg`, picture, "pic.jpg"],
    ] as const) {
      const own = await get(target, owner.cookie);
      expect(own.status, target).toBe(200);
      expect(own.body.equals(bytes)).toBe(true);
      expect(own.headers["cache-control"]).toMatch(/^private\b/);
      expect(own.headers["cache-control"]).not.toMatch(/public/);
      expect(own.headers["content-disposition"]).toBe(`inline; filename="${name}"`);
      expect(own.headers["x-content-type-options"]).toBe("nosniff");
      expect(own.headers["content-type"]).toBe("image/jpeg");

      const other = await get(target, stranger.cookie);
      expect(other.status).toBe(404);
      expectRefused(other, target);
      expect(other.headers["cache-control"]).toMatch(/no-store/);
      const none = await get(target);
      expect(none.status).toBe(404);
      expect(none.body.equals(other.body)).toBe(true);
    }
  });

  it("a missing private file and a refused one answer the same 404, never the fallback picture", async () => {
    const fallback = await stored("user.jpg");
    const missing = await get(`/content/${owner.characterId}/missing.jpg`, owner.cookie);
    const refused = await get(`/content/${owner.characterId}/pic.jpg`, stranger.cookie);
    const unknownChat = await get(`/content/${randomUUIDLike()}/pic.jpg`, owner.cookie);
    for (const answer of [missing, refused, unknownChat]) {
      expect(answer.status).toBe(404);
      expect(answer.body.includes(fallback.subarray(0, 64))).toBe(false);
      expect(answer.body.toString()).toBe(refused.body.toString());
    }
  });

  it("public content stays public and cacheable; a missing public picture falls back to user.jpg", async () => {
    const fallback = await stored("user.jpg");
    const root = await get("/content/user.jpg");
    expect(root.status).toBe(200);
    expect(root.body.equals(fallback)).toBe(true);
    expect(root.headers["cache-control"]).toMatch(/^public, max-age=\d+/);
    expect(root.headers["content-disposition"]).toBe('inline; filename="user.jpg"');
    expect(root.headers["x-content-type-options"]).toBe("nosniff");

    const preset = await firstName("predefined-characters");
    expect(preset).toMatch(/\.(jpg|png|webp)$/);
    const presetAnswer = await get(`/content/predefined-characters/${preset}`);
    expect(presetAnswer.status).toBe(200);
    expect(presetAnswer.headers["cache-control"]).toMatch(/^public, max-age=\d+/);
    expect(presetAnswer.headers["content-disposition"]).toBe(`inline; filename="${preset}"`);
    const plan = await firstName("pricing");
    expect(plan).toBeDefined();
    expect((await get(`/content/pricing/${plan}`)).status).toBe(200);
    const photoName = await firstName("characters");
    expect(photoName).toBeDefined();
    expect((await get(`/content/characters/${photoName}`)).status).toBe(200);

    const missing = await get("/content/characters/no-such-photo.jpg");
    expect(missing.status).toBe(200);
    expect(missing.body.equals(fallback)).toBe(true);
    expect(missing.headers["content-disposition"]).toBe('inline; filename="user.jpg"');
    // Not a picture: no fallback.
    expect((await get("/content/voice/no-such-voice.mp3")).status).toBe(404);
    // Without the fallback picture itself, a plain 404 (and no loop).
    await server.storage.remove("user.jpg");
    try {
      expect((await get("/content/characters/no-such-photo.jpg")).status).toBe(404);
    } finally {
      await server.storage.put("user.jpg", fallback);
    }
    // Outside the known areas nothing is served, not even an existing file.
    await server.storage.put("stray.txt", Buffer.from("stray"));
    expect((await get("/content/stray.txt")).status).toBe(404);
    // Nor a path that leaves the content folder (the secret is a file beside it on the local disk).
    const secret =
      server.config.CONTENT_SECRET || fs.readFileSync(path.join(server.dataDir, "content-secret"), "utf8");
    for (const target of [
      "/content/../content-secret",
      "/content/%2e%2e/content-secret",
      "/content/..%2Fcontent-secret",
    ]) {
      const answer = await get(target);
      expect([400, 404], target).toContain(answer.status);
      expect(answer.body.toString()).not.toContain(secret);
    }
  });

  it("the picture cookie stops working after logout", async () => {
    const member = await demo();
    await plantFiles(member.characterId);
    const target = `/content/${member.characterId}/pic.jpg`;
    expect((await get(target, member.cookie)).status).toBe(200);
    const out = await api("POST", "/api/auth/logout", { token: member.token, form: { token: member.token } });
    expect(out.status).toBe(200);
    expectRefused(await get(target, member.cookie), target);
    expect((await get(target, member.cookie)).status).toBe(404);
  });

  it("the picture cookie stops working after a password change, and a new sign-in gets a new one", async () => {
    const email = `member-${randomBytes(4).toString("hex")}@example.com`;
    const user = await server.auth.createAccount({
      email,
      password: "old password 123",
      fullName: "Member",
      planName: "Free",
    });
    const signIn = await api("POST", "/api/auth/login", {
      form: { email, password: "old password 123" },
    });
    const token = (signIn.body.data as { token: string }).token;
    const member = await withCharacter(token, user.id);
    await plantFiles(member.characterId);
    const target = `/content/${member.characterId}/user_photo/x.jpg`;
    expect((await get(target, member.cookie)).status).toBe(200);

    await server.auth.setPasswordAndRevokeSessions(user.id, "new password 123");
    expectRefused(await get(target, member.cookie), target);
    expect((await get(target, member.cookie)).status).toBe(404);

    const again = await api("POST", "/api/auth/login", { form: { email, password: "new password 123" } });
    const newToken = (again.body.data as { token: string }).token;
    const list = await api("GET", "/api/characters/list/", { token: newToken });
    expect(list.cookie).toBeDefined();
    expect(list.cookie).not.toBe(member.cookie);
    expect((await get(target, list.cookie)).status).toBe(200);
  });

  it("the picture cookie stops working when an admin blocks the account", async () => {
    const member = await demo();
    await plantFiles(member.characterId);
    const target = `/content/${member.characterId}/pic.jpg`;
    expect((await get(target, member.cookie)).status).toBe(200);
    await server.db.db.updateTable("users").set({ blocked: 1 }).where("id", "=", member.userId).execute();
    expectRefused(await get(target, member.cookie), target);
    expect((await get(target, member.cookie)).status).toBe(404);
  });

  it("a cookie with a forged or altered session part is refused", async () => {
    const value = decodeURIComponent(owner.cookie.slice("chat_content=".length));
    const parts = value.split(".");
    const target = `/content/${owner.characterId}/pic.jpg`;
    const altered = [
      // Another session's part with the owner's signature.
      [...parts.slice(0, -2), stranger.cookie.split(".").at(-2) ?? "", parts.at(-1)].join("."),
      // The old, unbound form: user and expiry only.
      [parts[0], parts[1], parts.at(-1)].join("."),
      // The owner's id with a made-up signature.
      [...parts.slice(0, -1), "A".repeat(43)].join("."),
    ];
    for (const forged of altered) {
      const answer = await get(target, `chat_content=${encodeURIComponent(forged)}`);
      expect(answer.status).toBe(404);
    }
  });
});

/** A well-formed id that names no chat. */
function randomUUIDLike(): string {
  const hex = randomBytes(16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
