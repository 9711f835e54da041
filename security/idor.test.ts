import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ADMIN_ROUTES } from "../server/modules/admin/admin.routes";
import { describeEachDatabase } from "../server/testing/api";
import { ScriptedLlm } from "../server/testing/fake-llm";
import { type ImageDouble, startImageDouble } from "../server/testing/image-servers";
import {
  addPresetCharacter,
  contentCookieOf,
  createGroup,
  firstLanguage,
  http,
  jpegOf,
  type Part,
  protectedRoutes,
  type Session,
  sendMessage,
  setUser,
  signIn,
  signInMember,
} from "./support/fixtures";
import { type ListeningApp, startListening } from "./support/server";

/**
 * Protected routes that take no id of anything a user owns (preset and plan ids are public, the
 * voice preview takes a voice name, create and import make new things). Every other protected
 * route must be in the attack list below, so a new id-taking route is attacked or named here.
 */
const TAKES_NO_OWNED_ID = new Set([
  "GET /api/characters/list/chat",
  "GET /api/characters/selection",
  "POST /api/characters/create-preselect",
  "GET /api/characters/languages",
  "GET /api/characters/voices",
  "GET /api/characters/voice",
  "GET /api/characters/voice/preview",
  "POST /api/characters/create",
  "POST /api/characters/create-random",
  "POST /api/characters/import",
  "GET /api/chat/capabilities",
  "POST /api/chat/transcribe",
  "POST /api/users/confirm-age",
  "POST /api/payment/checkout",
  "POST /api/payment/addon",
  "POST /api/payment/portal",
  "GET /api/payment/options",
  "POST /api/auth/devices",
  "GET /api/auth/devices",
  "GET /api/chat/checkins/unread",
  // The user to erase is the token's only; another user's token is attacked in account-erase.test.ts.
  "POST /api/account/delete",
  // "Take my data": the token's user's exports only; another user's export id is
  // attacked in account-export.test.ts (the same 404 as an unknown id).
  "POST /api/account/export",
  "GET /api/account/export",
  "GET /api/account/export/:id/download",
  // the token's user's own language; the body holds a language code, no id.
  "POST /api/users/ui-language",
]);

/** One request user B makes with user A's ids, and what it must answer. */
interface Attack {
  name: string;
  method: "GET" | "POST" | "DELETE" | "PATCH";
  url: string;
  form?: Record<string, string>;
  parts?: Part[];
  /** 404 unless the code says otherwise (403: the admin area). */
  status?: number;
}

describeEachDatabase("IDOR, user B with user A's ids on every id-taking route", (dialect) => {
  let t: ListeningApp;
  let images: ImageDouble;
  let a: Session;
  let b: Session;
  /** A's things. */
  const A = {
    char: "",
    char2: "",
    group: "",
    entry: "",
    groupEntry: "",
    memory: "",
    photoFile: "",
    device: "",
  };
  /** B's own things, used beside A's ids. */
  const B = { char: "", group: "" };
  const secret = `A-private-${randomBytes(4).toString("hex")}`;
  const fact = `A-fact-${randomBytes(4).toString("hex")}`;
  let languageId = "";
  let photo: Buffer = Buffer.alloc(0);

  /** Everything A can see of A's data, read as A. */
  const snapshotOfA = async () => {
    const get = async (url: string) => (await http(t.url, "GET", url, { token: a.token })).json;
    return {
      char: await get(`/api/characters/?id=${A.char}`),
      char2: await get(`/api/characters/?id=${A.char2}`),
      list: await get("/api/characters/list/"),
      groups: await get("/api/characters/group/list/"),
      history: await get(`/api/chat/history/paginated?id=${A.char}&limit=100`),
      groupHistory: await get(`/api/chat/history/paginated?id=${A.group}&limit=100`),
      photos: await get(`/api/chat/history/photos?id=${A.char}`),
      memories: await get(`/api/chat/memories?id=${A.char}`),
      profile: await get("/api/users/profile/"),
      devices: await get("/api/auth/devices"),
      groupProfile: await get(`/api/chat/profile/?id=${A.group}`),
      // Through the app's storage: the local disk, or S3 on the shared stack.
      files: await t.storage.list(A.char),
      count: await t.db.db
        .selectFrom("users")
        .select(["chat_count", "full_name", "user_name", "picture"])
        .where("id", "=", a.userId)
        .executeTakeFirstOrThrow(),
    };
  };
  let before: Awaited<ReturnType<typeof snapshotOfA>>;

  beforeAll(async () => {
    images = await startImageDouble("automatic1111", { hold: true });
    t = await startListening({
      dialect,
      llm: new ScriptedLlm(() => "I see."),
      env: { IMAGE_PROVIDER: "automatic1111", IMAGE_BASE_URL: images.baseUrl },
    });
    // A is a member (devices are for members only); B a guest.
    a = await signInMember(t, `a-${randomBytes(4).toString("hex")}@example.com`, "A-password-1234");
    b = await signIn(t.url);
    for (const user of [a, b]) await setUser(t, user.userId, { image_generation: 1, photo_upload: 1 });
    A.char = await addPresetCharacter(t.url, a.token, 0);
    A.char2 = await addPresetCharacter(t.url, a.token, 1);
    A.group = await createGroup(t.url, a.token, [A.char, A.char2]);
    A.entry = await sendMessage(t.url, a.token, A.char, `${secret} one`);
    const groupReply = await http(t.url, "POST", "/api/chat/group/reply", {
      token: a.token,
      form: { id: A.group, message: `${secret} to the group`, mute: "1" },
    });
    A.groupEntry = (groupReply.json.history as Array<{ chatHistoryUUID: string }>)[0]!.chatHistoryUUID;
    const sentPhoto = await http(t.url, "POST", "/api/chat/photo-process", {
      token: a.token,
      parts: [
        { name: "id", value: A.char },
        { name: "message", value: `${secret} photo` },
        { name: "photo", value: await jpegOf(64, 64), filename: "me.jpg", type: "image/jpeg" },
      ],
    });
    A.photoFile = String(sentPhoto.json.photo);
    const device = await http(t.url, "POST", "/api/auth/devices", {
      token: a.token,
      form: { name: "A's phone" },
    });
    if (device.json.success !== 1) throw new Error(`device: ${device.raw.toString()}`);
    const devices = await http(t.url, "GET", "/api/auth/devices", { token: a.token });
    A.device = (devices.json.data as Array<{ id: string }>)[0]!.id;
    // Long-term facts come from the model in the background; one is written here directly.
    A.memory = randomUUID();
    await t.db.db
      .insertInto("memories")
      .values({ id: A.memory, user_id: a.userId, character_id: A.char, fact, created_at: Date.now() })
      .execute();
    B.char = await addPresetCharacter(t.url, b.token, 0);
    const bSecond = await addPresetCharacter(t.url, b.token, 1);
    B.group = await createGroup(t.url, b.token, [B.char, bSecond]);
    languageId = await firstLanguage(t.url, b.token);
    photo = await jpegOf(32, 32);
    before = await snapshotOfA();
  });
  afterAll(async () => {
    await t?.dispose();
    await images?.close();
  });

  it("the set-up gave A a chat, a group chat, a photo and a memory (so the attacks aim at something)", () => {
    expect(A.photoFile).toMatch(/\.jpg$/);
    expect(before.files).toContain(`${A.char}/user_photo/${A.photoFile}`);
    expect(JSON.stringify(before.history)).toContain(secret);
    expect(JSON.stringify(before.groupHistory)).toContain(secret);
    expect(JSON.stringify(before.memories)).toContain(fact);
    expect(before.count.chat_count).toBe(3);
    expect(before.devices.data).toHaveLength(1);
  });

  const characterForm = (extra: Record<string, string>) => ({
    name: "Mallory",
    sex: "0",
    voice: "English Female",
    language: languageId,
    description: "Taken over.",
    ...extra,
  });

  const attacks = (): Attack[] => [
    // Characters
    { name: "character detail", method: "GET", url: `/api/characters/?id=${A.char}` },
    {
      name: "character update",
      method: "POST",
      url: "/api/characters/update",
      form: characterForm({ id: A.char }),
    },
    {
      name: "character update (multipart, with a photo)",
      method: "POST",
      url: "/api/characters/update",
      parts: [
        ...Object.entries(characterForm({ id: A.char })).map(([name, value]) => ({ name, value })),
        { name: "photo", value: photo, filename: "new.jpg", type: "image/jpeg" },
      ],
    },
    { name: "character delete", method: "DELETE", url: `/api/characters/delete/?id=${A.char}` },
    { name: "character card export", method: "GET", url: `/api/characters/export/?id=${A.char}` },
    { name: "character list of A", method: "GET", url: `/api/characters/list/?id=${a.userId}` },
    { name: "group list of A", method: "GET", url: `/api/characters/group/list/?id=${a.userId}` },
    // Groups
    { name: "group delete", method: "DELETE", url: `/api/characters/group/delete/?id=${A.group}` },
    { name: "new group with A's character", method: "GET", url: `/api/chat/group/new?cId=${A.char}` },
    {
      name: "add B's character to A's group",
      method: "GET",
      url: `/api/chat/group/member/add?gId=${A.group}&cId=${B.char}`,
    },
    {
      name: "add A's character to B's group",
      method: "GET",
      url: `/api/chat/group/member/add?gId=${B.group}&cId=${A.char}`,
    },
    {
      name: "remove A's character from A's group",
      method: "GET",
      url: `/api/chat/group/member/remove?gId=${A.group}&cId=${A.char}`,
    },
    {
      name: "remove A's character from B's group",
      method: "GET",
      url: `/api/chat/group/member/remove?gId=${B.group}&cId=${A.char}`,
    },
    {
      name: "group reply in A's group",
      method: "POST",
      url: "/api/chat/group/reply",
      form: { id: A.group, message: "hi all" },
    },
    // Chat
    ...(["character", "group"] as const).map((kind) => ({
      name: `chat import (replaces the history) into A's ${kind}`,
      method: "POST" as const,
      url: "/api/chat/import",
      parts: [
        { name: "id", value: kind === "character" ? A.char : A.group },
        {
          name: "file",
          value: `${JSON.stringify({ user_name: "B", character_name: "A", create_date: "", chat_metadata: {} })}\n${JSON.stringify({ name: "B", is_user: true, is_system: false, send_date: 0, mes: "mine now", extra: {} })}\n`,
          filename: "chat.jsonl",
          type: "application/jsonl",
        },
      ],
    })),
    { name: "chat profile of A's character", method: "GET", url: `/api/chat/profile/?id=${A.char}` },
    { name: "chat profile of A's group", method: "GET", url: `/api/chat/profile/?id=${A.group}` },
    {
      name: "chat profile naming A (uid)",
      method: "GET",
      url: `/api/chat/profile/?id=${B.char}&uid=${a.userId}`,
    },
    { name: "history of A's chat", method: "GET", url: `/api/chat/history?id=${A.char}` },
    { name: "history of A's group", method: "GET", url: `/api/chat/history?id=${A.group}` },
    { name: "history naming A (uId)", method: "GET", url: `/api/chat/history?id=${B.char}&uId=${a.userId}` },
    { name: "history page of A's chat", method: "GET", url: `/api/chat/history/paginated?id=${A.char}` },
    {
      name: "history page naming A (uId)",
      method: "GET",
      url: `/api/chat/history/paginated?id=${B.char}&uId=${a.userId}`,
    },
    { name: "photos of A's chat", method: "GET", url: `/api/chat/history/photos?id=${A.char}` },
    {
      name: "photos naming A (uId)",
      method: "GET",
      url: `/api/chat/history/photos?id=${B.char}&uId=${a.userId}`,
    },
    { name: "new chat (deletes history) of A's chat", method: "GET", url: `/api/chat/new?id=${A.char}` },
    { name: "new chat of A's group", method: "GET", url: `/api/chat/new?id=${A.group}` },
    { name: "new chat naming A (uid)", method: "GET", url: `/api/chat/new?id=${B.char}&uid=${a.userId}` },
    {
      name: "message to A's chat",
      method: "POST",
      url: "/api/chat/message",
      form: { id: A.char, message: "hi" },
    },
    {
      name: "message to A's group",
      method: "POST",
      url: "/api/chat/message",
      form: { id: A.group, message: "hi" },
    },
    {
      name: "message in B's chat answered by A's character (cId)",
      method: "POST",
      url: "/api/chat/message",
      form: { id: B.char, cId: A.char, message: "hi" },
    },
    {
      name: "streamed message to A's chat",
      method: "POST",
      url: "/api/chat/message",
      form: { id: A.char, message: "hi", stream: "1" },
      status: 200,
    },
    { name: "continue A's reply", method: "POST", url: "/api/chat/continue-message", form: { id: A.entry } },
    {
      name: "continue A's group reply",
      method: "POST",
      url: "/api/chat/continue-message",
      form: { id: A.groupEntry },
    },
    { name: "stop A's reply", method: "POST", url: "/api/chat/stop", form: { id: A.entry } },
    // swipes, edits, deletes and rewinds take the entry's id.
    { name: "regenerate A's reply", method: "POST", url: "/api/chat/regenerate", form: { id: A.entry } },
    {
      name: "regenerate A's reply (streamed)",
      method: "POST",
      url: "/api/chat/regenerate",
      form: { id: A.entry, stream: "1" },
      status: 200,
    },
    {
      name: "regenerate A's group reply",
      method: "POST",
      url: "/api/chat/regenerate",
      form: { id: A.groupEntry },
    },
    { name: "swipe A's reply", method: "POST", url: "/api/chat/swipe", form: { id: A.entry, index: "0" } },
    { name: "prompt of A's reply", method: "GET", url: `/api/chat/prompt?id=${A.entry}` },
    { name: "prompt of A's group reply", method: "GET", url: `/api/chat/prompt?id=${A.groupEntry}` },
    // Search: A's chat by id is unknown to B, and B's own search never reaches A's words.
    { name: "search A's chat", method: "GET", url: `/api/search?q=${secret}&chat=${A.char}` },
    { name: "search A's group", method: "GET", url: `/api/search?q=${secret}&chat=${A.group}` },
    {
      name: "edit A's message",
      method: "POST",
      url: "/api/chat/edit",
      form: { id: A.entry, part: "message", text: "taken over" },
    },
    {
      name: "edit A's group reply",
      method: "POST",
      url: "/api/chat/edit",
      form: { id: A.groupEntry, part: "reply", text: "taken over" },
    },
    { name: "delete A's entry", method: "POST", url: "/api/chat/delete", form: { id: A.entry } },
    { name: "delete A's group entry", method: "POST", url: "/api/chat/delete", form: { id: A.groupEntry } },
    { name: "rewind A's chat", method: "POST", url: "/api/chat/rewind", form: { id: A.entry } },
    { name: "rewind A's group", method: "POST", url: "/api/chat/rewind", form: { id: A.groupEntry } },
    // following a reply's live stream (any instance) takes the entry's id.
    { name: "follow A's reply stream", method: "GET", url: `/api/chat/stream?id=${A.entry}&after=0` },
    { name: "follow A's group reply stream", method: "GET", url: `/api/chat/stream?id=${A.groupEntry}` },
    {
      name: "request a photo in A's chat",
      method: "POST",
      url: "/api/chat/request-photo",
      form: { id: A.char, message: "Send a photo of the beach" },
    },
    {
      name: "request a photo from A's character in B's chat (cid)",
      method: "POST",
      url: "/api/chat/request-photo",
      form: { id: B.char, cid: A.char, message: "Send a photo of the beach" },
    },
    { name: "picture for A's entry", method: "POST", url: "/api/chat/image", form: { id: A.entry } },
    {
      name: "photo into A's chat",
      method: "POST",
      url: "/api/chat/photo-process",
      parts: [
        { name: "id", value: A.char },
        { name: "photo", value: photo, filename: "p.jpg", type: "image/jpeg" },
      ],
    },
    {
      name: "photo to A's character in B's chat (cid)",
      method: "POST",
      url: "/api/chat/photo-process",
      parts: [
        { name: "id", value: B.char },
        { name: "cid", value: A.char },
        { name: "photo", value: photo, filename: "p.jpg", type: "image/jpeg" },
      ],
    },
    {
      name: "audio message to A's chat",
      method: "POST",
      url: "/api/chat/audio-message",
      form: { id: A.char, message: "hi", mute: "1" },
    },
    {
      name: "audio greeting of A's chat",
      method: "POST",
      url: "/api/chat/audio-message",
      form: { id: A.char, is_greeting: "1", mute: "1" },
    },
    {
      name: "audio message in B's chat to A's character",
      method: "POST",
      url: "/api/chat/audio-message",
      form: { id: B.char, characterId: A.char, message: "hi", mute: "1" },
    },
    // Memories
    { name: "memories of A's chat", method: "GET", url: `/api/chat/memories?id=${A.char}` },
    { name: "memories of A's group", method: "GET", url: `/api/chat/memories?id=${A.group}` },
    { name: "delete A's memory", method: "DELETE", url: `/api/chat/memories/?id=${A.memory}` },
    { name: "recall setting of A's chat", method: "GET", url: `/api/chat/recall?id=${A.char}` },
    { name: "recall setting of A's group", method: "GET", url: `/api/chat/recall?id=${A.group}` },
    {
      name: "switch off recall of A's chat",
      method: "POST",
      url: "/api/chat/recall",
      form: { id: A.char, enabled: "0" },
    },
    {
      name: "switch off recall of A's group",
      method: "POST",
      url: "/api/chat/recall",
      form: { id: A.group, enabled: "0" },
    },
    // Check-ins
    { name: "check-in state of A's chat", method: "GET", url: `/api/chat/checkins?id=${A.char}` },
    { name: "check-in state of A's group", method: "GET", url: `/api/chat/checkins?id=${A.group}` },
    {
      name: "let A's character write first",
      method: "POST",
      url: "/api/chat/checkins",
      form: { id: A.char, enabled: "1", timeZone: "Europe/Berlin" },
    },
    // Users
    { name: "profile of A", method: "GET", url: `/api/users/profile/?id=${a.userId}` },
    {
      name: "update A's profile",
      method: "POST",
      url: "/api/users/update",
      form: { id: a.userId, fname: "Mallory", name: "mallory" },
    },
    {
      name: "change A's password",
      method: "PATCH",
      url: "/api/users/update-password",
      form: { id: a.userId, cpassword: "whatever1", npassword: "Mallory-1234", rtpassword: "Mallory-1234" },
    },
    // Devices
    { name: "revoke A's device", method: "DELETE", url: `/api/auth/devices?id=${A.device}` },
    // Admin: B is no admin; A's id in every `:id`.
    ...ADMIN_ROUTES.map(
      (route): Attack => ({
        name: `admin ${route.method} ${route.url}`,
        method: route.method,
        url: route.url.replace(":id", a.userId),
        form: route.method === "POST" ? { blocked: "1", plan: randomUUID(), cl: "99" } : undefined,
        status: 403,
      }),
    ),
  ];

  it("every protected route of the route table is attacked below or named as taking no owned id", () => {
    const attacked = new Set(
      attacks().map((attack) => {
        const route = ADMIN_ROUTES.find(
          (r) => r.method === attack.method && r.url.replace(":id", a.userId) === attack.url,
        );
        return `${attack.method} ${route ? route.url : attack.url.split("?")[0]!.replace(/\/$/, "")}`;
      }),
    );
    const missing = protectedRoutes(t.app)
      .map((r) => `${r.method} ${r.url}`)
      .filter((r) => !attacked.has(r) && !TAKES_NO_OWNED_ID.has(r));
    expect(missing).toEqual([]);
  });

  it("every id-taking route answers B 404 (403 in the admin area) for A's ids, and leaks nothing of A", async () => {
    const failures: string[] = [];
    for (const attack of attacks()) {
      const answer = await http(t.url, attack.method, attack.url, {
        token: b.token,
        form: attack.form,
        parts: attack.parts,
      });
      const text = answer.raw.toString();
      const expected = attack.status ?? 404;
      if (attack.form?.stream === "1") {
        // A streamed answer has begun (200) before the chat is resolved: the refusal is its error event.
        if (
          !/event: error\ndata: \{"success":0,"message":"[^"]*","code":"not_found","status":404\}/.test(text)
        ) {
          failures.push(`${attack.name}: ${answer.status} ${text.slice(0, 200)}`);
        }
      } else if (answer.status !== expected || answer.json.success !== 0) {
        failures.push(`${attack.name}: ${answer.status} ${text.slice(0, 200)}`);
      }
      if (text.includes(secret) || text.includes(fact) || text.includes(A.photoFile)) {
        failures.push(`${attack.name}: the answer carries A's data`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("B's content cookie does not open A's photo, nor does no cookie", async () => {
    const file = await t.storage.read(`${A.char}/user_photo/${A.photoFile}`);
    if (!file) throw new Error("A's photo is not stored");
    const url = `/content/${A.char}/user_photo/${A.photoFile}`;
    for (const cookie of [await contentCookieOf(t.url, b.token), undefined]) {
      const answer = await http(t.url, "GET", url, { cookie });
      expect([403, 404]).toContain(answer.status);
      expect(answer.raw.includes(file.subarray(0, 64))).toBe(false);
    }
    const own = await http(t.url, "GET", url, { cookie: await contentCookieOf(t.url, a.token) });
    expect(own.status).toBe(200);
  });

  it("after every attack A's data reads back unchanged, and B was charged nothing", async () => {
    expect(await snapshotOfA()).toEqual(before);
    const bUser = await t.db.db
      .selectFrom("users")
      .select("chat_count")
      .where("id", "=", b.userId)
      .executeTakeFirstOrThrow();
    expect(bUser.chat_count).toBe(0);
    const jobs = await t.db.db
      .selectFrom("image_jobs")
      .select("id")
      .where("user_id", "=", b.userId)
      .execute();
    expect(jobs).toEqual([]);
    expect(await t.storage.list(B.char)).toEqual([]);
  });
});
