import { randomUUID } from "node:crypto";
import { strFromU8, unzipSync } from "fflate";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIRST_MESSAGE_MARKER } from "../../../common/constants";
import type { JobQueue } from "../../jobs/queue";
import { call, describeEachDatabase } from "../../testing/api";
import { startMailCatcher } from "../../testing/mail";
import { startTestS3, type TestS3 } from "../../testing/s3-server";
import { createTestApp, TEST_STACK, type TestApp } from "../../testing/server";
import { cardLorebook, readCard } from "../characters/card";
import { ExportRepo } from "./export.repo";
import { EXPORT_TTL_MS, ExportService } from "./export.service";

/**
 * "Take my data": the export job's ZIP opened with fflate: account.json, every chat as
 * SillyTavern JSONL (header line, then messages with name/is_user/mes/send_date in order, swipes
 * from the reply swipes), every character as a PNG card that the app's own import reads
 * back with the same fields, the photos and chat pictures; only the owner reads the status or
 * downloads; expiry and erasure remove the ZIP. On SQLite and PostgreSQL with content on disk, and
 * on SQLite with content on S3 (s3rver).
 */
describeEachDatabase("take my data", (dialect) => exportSuite(dialect, false));
describe.skipIf(TEST_STACK === "shared")("take my data [sqlite, content on s3rver]", () =>
  exportSuite("sqlite", true),
);

const LORE = {
  name: "Tea lore",
  entries: [
    {
      keys: ["tea"],
      secondary_keys: [],
      content: "She grows green tea on the balcony.",
      enabled: true,
      constant: false,
      selective: false,
      case_sensitive: false,
      insertion_order: 0,
      position: "before_char",
      name: "tea",
      comment: "",
      extensions: {},
    },
  ],
};

function exportSuite(dialect: "sqlite" | "postgres", onS3: boolean): void {
  let t: TestApp;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  let s3: TestS3 | undefined;
  beforeAll(async () => {
    mail = await startMailCatcher();
    s3 = onS3 ? await startTestS3({ prefix: "export/" }) : undefined;
    t = await createTestApp({ dialect, env: { SMTP_URL: mail.smtpUrl, ...s3?.env } });
  });
  afterAll(async () => {
    await t?.dispose();
    await mail?.close();
    await s3?.close();
  });

  const db = () => t.db.db;
  const base = Date.UTC(2026, 0, 2, 10, 0, 0);
  const jpeg = (color: string) =>
    sharp({ create: { width: 16, height: 16, channels: 3, background: color } })
      .jpeg()
      .toBuffer();

  interface Person {
    id: string;
    email: string;
    token: string;
    password: string;
    characterId: string;
    secondId: string;
    groupId: string;
    entryIds: string[];
    files: string[];
  }

  /** A member with two characters (one with a lorebook, one with a photo that is not a PNG), a chat, a group chat, pictures. */
  async function member(options: { entries?: number; brokenPhoto?: boolean } = {}): Promise<Person> {
    const tag = randomUUID().slice(0, 8);
    const email = `export_${tag}@example.com`;
    const password = `export-pass-${tag}`;
    const user = await t.auth.createAccount({ email, password, fullName: `Ada ${tag}`, planName: "Free" });
    const picture = `pic-${tag}.jpg`;
    await db()
      .updateTable("users")
      .set({ user_name: `ada-${tag}`, picture })
      .where("id", "=", user.id)
      .execute();
    const session = await t.auth.signInAs({ ...user, user_name: `ada-${tag}` });
    const language = await db().selectFrom("languages").select("id").executeTakeFirstOrThrow();
    const characterId = randomUUID();
    const secondId = randomUUID();
    const photo = `photo-${tag}.jpg`;
    const character = (id: string, name: string, extra: Record<string, unknown>) => ({
      id,
      user_id: user.id,
      preset_id: null,
      created_at: base,
      name,
      sex: "0",
      voice: "",
      language_id: language.id,
      description: `${name} is a botanist who lives in Lisbon.`,
      greeting: `Hello, I am ${name}!`,
      appearance: "",
      photo: "",
      lorebook: null,
      ...extra,
    });
    await db()
      .insertInto("characters")
      .values([
        character(characterId, `Mira ${tag}`, { photo, lorebook: JSON.stringify(LORE) }),
        // Its photo file is missing: the card gets the default picture.
        character(secondId, `Juno ${tag}`, { photo: `missing-${tag}.jpg` }),
      ])
      .execute();
    const groupId = randomUUID();
    await db()
      .insertInto("chat_groups")
      .values({ id: groupId, user_id: user.id, created_at: base })
      .execute();
    await db()
      .insertInto("chat_group_members")
      .values([
        { group_id: groupId, character_id: characterId, position: 0 },
        { group_id: groupId, character_id: secondId, position: 1 },
      ])
      .execute();
    const session1 = randomUUID();
    const session2 = randomUUID();
    await db()
      .insertInto("chat_sessions")
      .values([
        {
          id: session1,
          user_id: user.id,
          chat_key: characterId,
          is_group: 0,
          summary: "",
          greeted: 1,
          created_at: base,
          updated_at: base,
        },
        {
          id: session2,
          user_id: user.id,
          chat_key: groupId,
          is_group: 1,
          summary: "",
          greeted: 1,
          created_at: base,
          updated_at: base,
        },
      ])
      .execute();
    const entry = (sessionId: string, i: number, fields: Record<string, unknown>) => ({
      id: randomUUID(),
      session_id: sessionId,
      character_id: characterId,
      message: "",
      message_image: "",
      send_time: base + i * 1000,
      reply_message: "",
      reply_image: "",
      reply_audio_url: "",
      reply_time: base + i * 1000 + 500,
      image_loading: 0,
      status: "replied",
      error: "",
      seq: (base + i * 1000) * 1000,
      client_message_id: "",
      ...fields,
    });
    const replyImage = `reply-${tag}.jpg`;
    const userPhoto = `user-${tag}.jpg`;
    const entries = [
      // The greeting: only the reply.
      entry(session1, 0, { message: FIRST_MESSAGE_MARKER, reply_message: `Hello, I am Mira ${tag}!` }),
      entry(session1, 1, {
        message: "How are you?",
        reply_message: "Fine, thanks!",
        reply_image: replyImage,
        client_message_id: "c1",
      }),
      entry(session1, 2, { message: "Look at this", message_image: userPhoto, reply_message: "Nice photo." }),
      ...Array.from({ length: options.entries ?? 0 }, (_, i) =>
        entry(session1, 3 + i, { message: `message ${i}`, reply_message: `reply ${i}` }),
      ),
      entry(session2, 0, { message: "Hi both", reply_message: "Hi from Juno", character_id: secondId }),
    ];
    for (let i = 0; i < entries.length; i += 300)
      await db()
        .insertInto("chat_history")
        .values(entries.slice(i, i + 300))
        .execute();
    // the second entry's reply was regenerated; the first swipe is shown.
    await db()
      .insertInto("chat_reply_swipes")
      .values(
        ["Fine, thanks!", "Great, and you?"].map((reply_message, position) => ({
          id: randomUUID(),
          entry_id: entries[1]!.id,
          position,
          reply_message,
          created_at: base,
        })),
      )
      .execute();
    const files = [
      `users/${picture}`,
      `characters/${photo}`,
      `${characterId}/${replyImage}`,
      `${characterId}/user_photo/${userPhoto}`,
      `${groupId}/group-${tag}.jpg`,
    ];
    await t.storage.put(
      `characters/${photo}`,
      options.brokenPhoto ? Buffer.from("not an image") : await jpeg("#c33"),
    );
    for (const key of files.filter((k) => !k.startsWith("characters/")))
      await t.storage.put(key, Buffer.from(`bytes of ${key}`));
    t.caches.forgetAll();
    return {
      id: user.id,
      email,
      token: session.token,
      password,
      characterId,
      secondId,
      groupId,
      entryIds: entries.map((e) => e.id),
      files,
    };
  }

  const start = (token: string | undefined) =>
    call(t.app, "POST", "/api/account/export", { token, form: {} });
  const status = (token: string | undefined) => call(t.app, "GET", "/api/account/export", { token });
  const download = (token: string | undefined, id: string) =>
    t.app.inject({
      method: "GET",
      url: `/api/account/export/${id}/download`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  interface ExportBody {
    id: string;
    status: string;
    downloadUrl: string | null;
    expiresAt: number | null;
    readyAt: number | null;
  }
  const exportOf = (body: Record<string, unknown>) => body.export as ExportBody | null;

  /** Starts an export, runs its job, and answers its ready status. */
  async function ready(person: Person): Promise<ExportBody> {
    const started = await start(person.token);
    expect(started.status).toBe(200);
    expect(exportOf(started.body)).toMatchObject({ status: "queued" });
    await t.jobs.idle();
    const answer = exportOf((await status(person.token)).body);
    // The stored error, when the build failed, shows in the assertion.
    const row = await db()
      .selectFrom("data_exports")
      .select("error")
      .where("id", "=", answer?.id ?? "")
      .executeTakeFirst();
    expect({ ...answer, error: row?.error }).toMatchObject({
      id: exportOf(started.body)?.id,
      status: "ready",
      error: "",
    });
    return answer!;
  }

  it("builds a ZIP with the account, SillyTavern chats, cards that re-import, photos and pictures", async () => {
    const person = await member({ entries: 1100 });
    expect(exportOf((await status(person.token)).body)).toBeNull();
    const done = await ready(person);
    expect(done.downloadUrl).toBe(`/api/account/export/${done.id}/download`);
    expect(done.expiresAt! - done.readyAt!).toBe(EXPORT_TTL_MS);

    const res = await download(person.token, done.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/zip");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="my-data-\d{4}-\d\d-\d\d\.zip"$/,
    );
    const files = unzipSync(new Uint8Array(res.rawPayload));
    const names = Object.keys(files).sort();

    // account.json: the profile, plan and settings; no secret.
    const accountText = strFromU8(files["account.json"]!);
    const account = JSON.parse(accountText);
    expect(account.user).toMatchObject({
      id: person.id,
      email: person.email,
      user_name: expect.stringContaining("ada-"),
    });
    expect(account.plan.name).toBe("Free");
    expect(account.skipped).toEqual([]);
    expect(accountText).not.toMatch(/password|token|\$argon2/i);

    // The one-to-one chat: the header line, then the messages in order.
    const chatName = names.find((n) => n.startsWith("chats/") && n.endsWith(`-${person.characterId}.jsonl`))!;
    expect(chatName).toMatch(/^chats\/Mira_[0-9a-f]{8}-/);
    const lines = strFromU8(files[chatName]!)
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const [header, ...messages] = lines;
    expect(header).toMatchObject({
      user_name: expect.stringContaining("Ada "),
      character_name: expect.stringContaining("Mira "),
      create_date: "2026-01-02@10h00m00s",
      chat_metadata: expect.any(Object),
    });
    // Greeting (reply only), then each entry's message and reply: 1 + 2 · 1102.
    expect(messages).toHaveLength(1 + 2 * 1102);
    for (const message of messages) {
      expect(Object.keys(message)).toEqual(
        expect.arrayContaining(["name", "is_user", "is_system", "send_date", "mes", "extra"]),
      );
      expect(typeof message.mes).toBe("string");
      expect(Number.isNaN(Date.parse(message.send_date))).toBe(false);
    }
    expect(messages[0]).toMatchObject({ is_user: false, mes: expect.stringContaining("Hello, I am Mira") });
    expect(messages[1]).toMatchObject({ is_user: true, name: header.user_name, mes: "How are you?" });
    expect(messages[2]).toMatchObject({
      is_user: false,
      name: header.character_name,
      mes: "Fine, thanks!",
      swipes: ["Fine, thanks!", "Great, and you?"],
      swipe_id: 0,
      extra: { image: expect.stringMatching(/^photos\/chats\//) },
    });
    expect(messages[3]).toMatchObject({
      is_user: true,
      mes: "Look at this",
      extra: { image: expect.stringContaining("user_photo/") },
    });
    // In order across the history's pages (500 entries a page).
    const numbered = messages
      .slice(5)
      .filter((m: { is_user: boolean }) => m.is_user)
      .map((m: { mes: string }) => m.mes);
    expect(numbered).toEqual(Array.from({ length: 1100 }, (_, i) => `message ${i}`));
    const dates = messages.map((m: { send_date: string }) => Date.parse(m.send_date));
    expect(dates).toEqual([...dates].sort((a, b) => a - b));
    for (const message of messages) if (message.extra.image) expect(names).toContain(message.extra.image);

    // The group chat names its members; each reply carries its character's name.
    const group = strFromU8(files[names.find((n) => n.endsWith(`-${person.groupId}.jsonl`))!]!)
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(group[0].character_name).toMatch(/^Mira .* & Juno /);
    expect(group.slice(1)).toMatchObject([
      { is_user: true, mes: "Hi both" },
      { is_user: false, name: expect.stringContaining("Juno "), mes: "Hi from Juno" },
    ]);

    // Each character is a PNG card the app's own import reads back with the same fields.
    const cards = names.filter((n) => n.startsWith("characters/"));
    expect(cards).toHaveLength(2);
    const rows = await db().selectFrom("characters").selectAll().where("user_id", "=", person.id).execute();
    for (const row of rows) {
      const name = cards.find((n) => n.endsWith(`-${row.id}.png`))!;
      const bytes = Buffer.from(files[name]!);
      expect(bytes.subarray(1, 4).toString()).toBe("PNG");
      const card = readCard(bytes);
      expect({ name: card.name, backstory: card.backstory, greeting: card.greeting }).toEqual({
        name: row.name,
        backstory: row.description,
        greeting: row.greeting,
      });
      const book = cardLorebook(card.data);
      if (row.lorebook) {
        expect(book?.entries.map((e) => ({ keys: e.keys, content: e.content }))).toEqual([
          { keys: ["tea"], content: LORE.entries[0]!.content },
        ]);
      } else expect(book).toBeNull();
    }

    // The photos and the chats' pictures.
    for (const key of person.files) {
      const inZip = key.startsWith("users/")
        ? `photos/profile/${key.slice(6)}`
        : key.startsWith("characters/")
          ? `photos/${key}`
          : `photos/chats/${key}`;
      expect(names).toContain(inZip);
    }
    expect(strFromU8(files[`photos/chats/${person.groupId}/${person.files[4]!.split("/")[1]}`]!)).toBe(
      `bytes of ${person.files[4]}`,
    );

    // The e-mail links the profile.
    const message = await mail.waitFor(
      (m) => m.to === person.email && m.subject === "Your data is ready to download",
    );
    expect(message.text).toContain("/user/profile");
  });

  it("allows one export at a time and three a day", async () => {
    const person = await member();
    await db()
      .insertInto("data_exports")
      .values({ id: randomUUID(), user_id: person.id, status: "running", created_at: Date.now() })
      .execute();
    const busy = await start(person.token);
    expect(busy.status).toBe(429);
    expect(busy.body.message).toContain("already being prepared");
    await db().deleteFrom("data_exports").where("user_id", "=", person.id).execute();
    for (let i = 0; i < 3; i++) await ready(person);
    const fourth = await start(person.token);
    expect(fourth.status).toBe(429);
    expect(fourth.body.message).toContain("3 times a day");
    expect(await start(undefined)).toMatchObject({ status: 401 });
  });

  it("only the owner reads the status or downloads; anything else is the same 404", async () => {
    const owner = await member();
    const other = await member();
    const done = await ready(owner);
    expect(exportOf((await status(other.token)).body)).toBeNull();
    for (const res of [
      await download(other.token, done.id),
      await download(owner.token, randomUUID()),
      await download(owner.token, "..%2F..%2Fexports"),
      await download(owner.token, done.id.toUpperCase()),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.headers["content-type"]).toContain("application/json");
    }
    expect((await download(undefined, done.id)).statusCode).toBe(401);
    expect((await download(owner.token, done.id)).statusCode).toBe(200);
  });

  it("expiry removes the ZIP and marks the export expired; erasure removes the ZIP", async () => {
    const person = await member();
    const done = await ready(person);
    const row = await db()
      .selectFrom("data_exports")
      .selectAll()
      .where("id", "=", done.id)
      .executeTakeFirstOrThrow();
    expect(row.file_key).toMatch(new RegExp(`^exports/${person.id}/[\\w-]{32}\\.zip$`));
    expect(await t.storage.exists(row.file_key)).toBe(true);
    // A day later: still there a minute before, gone after.
    // (Other tests' exports, made earlier, may expire in the same sweep.)
    await t.account.exports.cleanup(done.expiresAt! - 60_000);
    expect(await t.storage.exists(row.file_key)).toBe(true);
    expect(await t.account.exports.cleanup(done.expiresAt!)).toBeGreaterThanOrEqual(1);
    expect(await t.storage.exists(row.file_key)).toBe(false);
    expect(exportOf((await status(person.token)).body)).toMatchObject({
      status: "expired",
      downloadUrl: null,
    });
    expect((await download(person.token, done.id)).statusCode).toBe(404);

    const again = await ready(person);
    const key = (
      await db()
        .selectFrom("data_exports")
        .select("file_key")
        .where("id", "=", again.id)
        .executeTakeFirstOrThrow()
    ).file_key;
    expect(await t.storage.exists(key)).toBe(true);
    const erased = await call(t.app, "POST", "/api/account/delete", {
      token: person.token,
      form: { password: person.password },
    });
    expect(erased.body).toMatchObject({ success: 1 });
    expect(await t.storage.list(`exports/${person.id}`)).toEqual([]);
    expect((await t.storage.list("")).filter((k) => k.includes(person.id))).toEqual([]);
  });

  it("skips a file over the limits with a note in account.json, and cuts a chat past the total", async () => {
    const person = await member({ entries: 40 });
    const logged: unknown[] = [];
    // The same service over the app's database and storage, with small bounds and no queue.
    const jobs = { define: () => undefined, enqueue: async () => undefined } as unknown as JobQueue;
    const service = new ExportService(new ExportRepo(db()), {
      storage: t.storage,
      mailer: t.mailer,
      jobs,
      // Cards larger than the file limit.
      cards: { exportCard: async () => ({ png: Buffer.alloc(5000), fileName: "card.png" }) },
      logError: (error) => logged.push(error),
      publicUrl: "http://localhost",
      maxFileBytes: 1000,
      maxTotalBytes: 3000,
    });
    const id = randomUUID();
    await db()
      .insertInto("data_exports")
      .values({ id, user_id: person.id, status: "queued", created_at: Date.now() })
      .execute();
    await service.build(id);
    expect(logged).toEqual([]);
    const row = await db()
      .selectFrom("data_exports")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("ready");
    const files = unzipSync(new Uint8Array((await t.storage.read(row.file_key))!));
    const account = JSON.parse(strFromU8(files["account.json"]!));
    // The cards (PNG, over 1000 bytes) are skipped and named; the small pictures are in.
    const names = Object.keys(files);
    expect(names.filter((n) => n.startsWith("characters/"))).toEqual([]);
    expect(account.skipped.filter((note: string) => note.startsWith("characters/"))).toHaveLength(2);
    expect(names).toContain(`photos/chats/${person.files[4]}`);
    // The long chat is cut at the total, with a note; what it holds still parses.
    expect(account.skipped.some((note: string) => /^chats\/.*: cut after/.test(note))).toBe(true);
    const chat = names.find((n) => n.endsWith(`-${person.characterId}.jsonl`))!;
    for (const line of strFromU8(files[chat]!).split("\n").filter(Boolean)) JSON.parse(line);
  });

  it("a build that fails marks the export failed and logs; the user may start again", async () => {
    const person = await member({ brokenPhoto: true });
    const started = await start(person.token);
    await t.jobs.idle();
    expect(exportOf((await status(person.token)).body)).toMatchObject({
      id: exportOf(started.body)?.id,
      status: "failed",
      downloadUrl: null,
    });
    const row = await db()
      .selectFrom("data_exports")
      .selectAll()
      .where("user_id", "=", person.id)
      .executeTakeFirstOrThrow();
    expect(row.error).not.toBe("");
    expect(await t.storage.list(`exports/${person.id}`)).toEqual([]);
    expect((await start(person.token)).status).toBe(200);
    await t.jobs.idle();
  });
}
