// Restore drill: a backup taken while members chat, restored into an empty data directory and database, holds every row and stored file of its moment, and a server on it chats, signs members in and reads its stored secrets (SQLite and PostgreSQL).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { OAuth2Server } from "oauth2-mock-server";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ChatHistoryEntry, MessageReply } from "../../../common/api";
import { type App, buildApp } from "../../app";
import { backupSource } from "../../container/backups";
import type { AppConfig } from "../../env";
import { call, callMultipart, confirmAge, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { type DatabaseRows, isBookkeeping, readAllRows, rowDifferences } from "../../testing/backup-fixtures";
import { type EmbeddingsDouble, startEmbeddingsDouble } from "../../testing/embeddings-server";
import { ScriptedLlm } from "../../testing/fake-llm";
import { type ImageDouble, makeImage, startImageDouble } from "../../testing/image-servers";
import { contentCookie } from "../../testing/images";
import { startMailCatcher } from "../../testing/mail";
import {
  createTestApp,
  createTestDatabase,
  localDiskOnly,
  type TestApp,
  testConfig,
} from "../../testing/server";
import {
  type StripeDouble,
  signedEvent,
  startStripeDouble,
  TEST_STRIPE_KEY,
  TEST_WEBHOOK_SECRET,
} from "../../testing/stripe-server";
import { writePngTextChunks } from "../characters/png-chunks";
import { localHour } from "../checkins/checkins.service";
import { FACTS_BATCH } from "../memory/memory.service";
import { type FakeEndpoint, api as modelsApi, startFakeEndpoint } from "../models/models.testing";
import { type BackupResult, createBackup, sqliteFile } from "./create-backup";
import { type RestoreResult, restoreBackup } from "./restore-backup";

const HAS_PG_DUMP = spawnSync("pg_dump", ["--version"]).status === 0;
const HOUR = 3_600_000;
const PASSPHRASE = "drill passphrase";
const API_KEY = "sk-drill-secret-key-1";
const OWNER = { email: "owner@drill.test", password: "owner-password-1" };
const MEMBER = { email: "member@drill.test", password: "member-password-1" };
const RESETTER = { email: "forgetful@drill.test", password: "forgetful-password-1" };
const INVITED = "invited@drill.test";
/**
 * How long the backup of the drill may take while members chat (a few seconds on a loaded machine;
 * a copy that starts over whenever the server commits would never end).
 */
const BACKUP_LIMIT_MS = 20_000;
/** The long imported chat: its exchanges, and how often each message repeats a 46-character sentence. */
const LONG_CHAT_EXCHANGES = 600;
const LONG_CHAT_REPEAT = 40;
/** Members that keep chatting while the backup runs. */
const CHATTERS = 3;

/**
 * Columns a row written while the backup ran may hold differently in the backup than in the
 * source afterwards (the snapshot can fall between a message's insert and its reply): a pending
 * entry's reply, status and times (on PostgreSQL with the reply's recall tsvector, a generated
 * column), and SQLite's search indexes' copy of the reply.
 */
const FILLED_LATER: Record<string, string[]> = {
  chat_history: ["reply_message", "reply_time", "status", "recall_reply"],
  message_search: ["reply"],
  message_recall: ["text"],
};

/** A fixed-offset IANA zone where `at` (epoch ms) is `hour` o'clock (check-ins wait for waking hours). */
function zoneWhere(at: number, hour: number): string {
  for (let offset = -12; offset <= 14; offset++) {
    const zone = offset === 0 ? "Etc/GMT" : `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`;
    if (localHour(at, zone) === hour) return zone;
  }
  throw new Error(`no zone has ${hour} o'clock at ${new Date(at).toISOString()}`);
}

/** A Character Card V2 PNG (its picture becomes the photo) with a lorebook and alternate greetings. */
async function cardPng(): Promise<Buffer> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#3a6ea5" } })
    .png()
    .toBuffer();
  const data = {
    name: "Ysolde",
    description: "Queen of the floating islands.",
    first_mes: "Welcome to my court.",
    alternate_greetings: ["You again! Welcome back."],
    character_book: {
      name: "Eldoria",
      entries: [
        { keys: [], content: "Eldoria floats.", constant: true, position: "before_char", enabled: true },
        { keys: ["amulet"], content: "The amulet was stolen.", position: "after_char", enabled: true },
      ],
    },
  };
  const card = { spec: "chara_card_v2", spec_version: "2.0", data };
  return writePngTextChunks(png, { chara: Buffer.from(JSON.stringify(card)).toString("base64") });
}

/** Waits until `done()` holds (checked every 5 ms). @throws Error naming `what` after 10 s. */
async function until(done: () => boolean, what: string): Promise<void> {
  const limit = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > limit) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Every regular file under `dir` by its path relative to it ("/"-separated). */
function filesUnder(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const full = path.join(entry.parentPath, entry.name);
      out.set(path.relative(dir, full).split(path.sep).join("/"), fs.readFileSync(full));
    }
  return out;
}

/** One chat send of a chatter: when it ran (performance.now) and how it was answered. */
interface Send {
  chatter: number;
  /** The message sent (each is unique). */
  text: string;
  start: number;
  end: number;
  status: number;
  success: unknown;
  message: string;
}

/** What the fixture made that the restored server is asked about afterwards. */
interface Facts {
  ownerToken: string;
  memberId: string;
  characterId: string;
  groupId: string;
  editedEntryId: string;
  picture: { chatId: string; file: string; bytes: Buffer };
  deviceId: string;
  connectionId: string;
  invitation: { id: string; link: string; code: string };
  resetCode: string;
  oauthUserId: string;
}

describeEachDatabase("restore drill", (dialect) => {
  if (localDiskOnly("a backup holds the stored files only when they are on the local disk")) {
    it.skip("restore drill (the shared stack keeps its files in S3)", () => {});
    return;
  }
  if (dialect === "postgres" && !HAS_PG_DUMP) {
    console.warn("SKIPPED restore drill [postgres]: pg_dump is not on PATH (a PostgreSQL backup needs it).");
    it.skip("restore drill (pg_dump is not on PATH)", () => {});
    return;
  }

  let t: TestApp;
  let restoredApp: App | undefined;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  let stripe: StripeDouble;
  let images: ImageDouble;
  let embeddings: EmbeddingsDouble;
  let endpoint: FakeEndpoint;
  const oauth = new OAuth2Server();
  let userinfo: Record<string, unknown> = {};
  let env: Record<string, string> = {};
  let replies = 0;
  const llm = new ScriptedLlm((request) => {
    const system = request.messages[0]?.content ?? "";
    const text = request.messages.map((m) => m.content).join("\n");
    if (system.startsWith("Extract lasting facts"))
      return text.includes("Biscuit") ? '["Guest has a dog called Biscuit."]' : "[]";
    if (system.startsWith("You keep the memory")) return "They talked about a dog.";
    if (request.messages.at(-1)?.content.includes("checks in on")) return "How is Biscuit today?";
    replies += 1;
    return `Reply number ${replies}.`;
  });

  // What the drill measured and made, read by the tests below.
  let facts: Facts;
  let before: DatabaseRows;
  let after: DatabaseRows;
  let restoredRows: DatabaseRows;
  let filesBefore: Map<string, Buffer>;
  const sends: Send[] = [];
  let backup: BackupResult;
  let backupWindow: { start: number; end: number };
  let restored: RestoreResult;
  let target: { dataDir: string; config: AppConfig; drop: () => Promise<void> };
  const timings: Record<string, number> = {};
  /** Ends the chatters' loops (a failed drill must not leave them running). */
  let stopChatters = async () => {};
  /** The backup of the drill, settled (afterAll waits for one the drill gave up on). */
  let backupSettled: Promise<void> = Promise.resolve();

  const post = (token: string, url: string, form: Record<string, string>) =>
    call(t.app, "POST", url, { token, form });
  const signIn = async (app: App | TestApp, email: string, password: string) => {
    const res = await call(app.app, "POST", "/api/auth/login", { form: { email, password } });
    expect(res.body, `sign-in of ${email}`).toMatchObject({ success: 1 });
    return res.body.data as { token: string; user: { id: string } };
  };
  const history = async (app: App | TestApp, token: string, id: string) =>
    (await call(app.app, "GET", `/api/chat/history/paginated?id=${id}&offset=0&limit=100`, { token })).body
      .data as ChatHistoryEntry[];

  /** Plays the browser through YouTube sign-in (our start, the provider, our callback). */
  async function youtubeSignIn(app: App | TestApp) {
    const start = await app.app.inject({ method: "GET", url: "/api/auth/oauth/youtube/start" });
    expect(start.statusCode).toBe(302);
    const cookie = String(start.headers["set-cookie"]).split(";")[0]!;
    const back = await fetch(new URL(start.headers.location as string), { redirect: "manual" });
    const callback = new URL(back.headers.get("location")!);
    const response = await app.app.inject({
      method: "POST",
      url: "/api/youtube/callback",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      payload: new URLSearchParams({
        code: callback.searchParams.get("code")!,
        state: callback.searchParams.get("state")!,
      }).toString(),
    });
    const body = response.json() as { success: number; data: { user: { id: string } } };
    expect(body.success).toBe(1);
    return body.data.user.id;
  }

  /**
   * Puts data in every table through the API as the SPA, the admin console, the mail, Stripe and
   * YouTube would; what no route writes is inserted directly (named below).
   */
  async function fill(): Promise<Facts> {
    // The owner, through the set-up link the server logs at its first start.
    const setupLink = await t.accounts.setup.freshLink();
    const setup = await call(t.app, "POST", "/api/setup", {
      form: { token: setupLink.split("/setup/")[1]!, ...OWNER, name: "Olga Owner" },
    });
    expect(setup.body.success).toBe(1);
    const ownerToken = (setup.body.data as { token: string }).token;
    const admin = (url: string, form: Record<string, string>) => post(ownerToken, url, form);

    // Members added in the admin console, with their limits.
    const add = async (email: string, password: string, name: string) => {
      const added = await admin("/api/admin/accounts", { email, password, name });
      expect(added.body.success).toBe(1);
      return (added.body.data as { id: string }).id;
    };
    const memberId = await add(MEMBER.email, MEMBER.password, "Mia Member");
    const payerId = await add(RESETTER.email, RESETTER.password, "Fred Forgetful");
    const limits = await admin(`/api/admin/users/${memberId}/limits`, {
      cl: "10",
      pl: "1",
      il: "1",
      chatLimit: "1000",
    });
    expect(limits.body.success).toBe(1);
    const { token } = await signIn(t, MEMBER.email, MEMBER.password);
    await confirmAge(t.app, token);

    // Characters: a card with its picture, lorebook and alternate greetings; one made with a photo.
    const imported = await callMultipart(t.app, "/api/characters/import", {
      token,
      files: { card: { bytes: await cardPng(), filename: "ysolde.png", type: "image/png" } },
    });
    expect(imported.body.success).toBe(1);
    const characterId = (imported.body.data as { characterUUID: string }).characterUUID;
    const languages = await call(t.app, "GET", "/api/characters/languages", { token });
    const languageId = (languages.body.languages as Array<{ languageUUID: string }>)[0]!.languageUUID;
    const created = await callMultipart(t.app, "/api/characters/create", {
      token,
      fields: {
        name: "Nova",
        sex: "0",
        voice: "English Female",
        language: languageId,
        description: "A pilot.",
      },
      files: {
        photo: { bytes: await makeImage(300, 400, "jpeg", 7), filename: "nova.jpg", type: "image/jpeg" },
      },
    });
    expect(created.body.success).toBe(1);
    const secondId = (created.body.data as { characterUUID: string }).characterUUID;

    // A chat: a spoken reply, enough messages for facts, a regenerated reply (swipes), edits.
    await call(t.app, "GET", `/api/chat/history?id=${characterId}`, { token });
    const spoken = await post(token, "/api/chat/message", {
      id: characterId,
      message: "Hello! My dog is called Biscuit.",
    });
    expect(spoken.body).toMatchObject({ success: 1, audioUrl: expect.stringMatching(/^\/content\/voice\//) });
    for (let i = 1; i < FACTS_BATCH; i++)
      expect(
        (
          await post(token, "/api/chat/message", {
            id: characterId,
            message: `I like the number ${i}.`,
            mute: "1",
          })
        ).body.success,
      ).toBe(1);
    const last = (await history(t, token, characterId)).at(-1)!;
    expect((await post(token, "/api/chat/regenerate", { id: last.chatHistoryUUID, mute: "1" })).status).toBe(
      200,
    );
    expect((await post(token, "/api/chat/swipe", { id: last.chatHistoryUUID, index: "0" })).status).toBe(200);
    const edited = (await history(t, token, characterId)).at(-2)!;
    for (const [part, text] of [
      ["message", "I like coffee, really."],
      ["reply", "Coffee it is, then."],
    ] as const)
      expect((await post(token, "/api/chat/edit", { id: edited.chatHistoryUUID, part, text })).status).toBe(
        200,
      );

    // Pictures: one asked for (a durable image job), one photo sent by the member.
    const asked = await callMultipart(t.app, "/api/chat/request-photo", {
      token,
      fields: { message: "Send a portrait photo", id: characterId, cid: characterId, mute: "1", type: "1" },
    });
    expect(asked.body).toMatchObject({ success: 1, genimage: 1 });
    await t.images.idle();
    const photo = await callMultipart(t.app, "/api/chat/photo-process", {
      token,
      fields: { id: characterId, message: "my bike" },
      files: {
        photo: { bytes: await makeImage(640, 480, "jpeg", 3), filename: "me.jpg", type: "image/jpeg" },
      },
    });
    expect(photo.body.success).toBe(1);
    const drawn = (await history(t, token, characterId)).find((e) => e.chatHistoryReplyImage)!;
    expect(drawn).toBeDefined();

    // A long chat imported from SillyTavern: megabytes of history, as a server in use has, so the
    // backup copies its database in many steps while the members chat.
    const said = (i: number) =>
      `${i}: ${"Tell me about the floating islands once more. ".repeat(LONG_CHAT_REPEAT)}`;
    const jsonl = [
      { user_name: "Mia", character_name: "Nova", create_date: "2023-05-08@13h56m00s", chat_metadata: {} },
      ...Array.from({ length: LONG_CHAT_EXCHANGES * 2 }, (_, i) => ({
        name: i % 2 === 0 ? "Mia" : "Nova",
        is_user: i % 2 === 0,
        is_system: false,
        send_date: 1683554160000 + i * 60_000,
        mes: said(i),
        extra: {},
      })),
    ];
    const imported2 = await callMultipart(t.app, "/api/chat/import", {
      token,
      fields: { id: secondId },
      files: {
        file: {
          bytes: Buffer.from(`${jsonl.map((l) => JSON.stringify(l)).join("\n")}\n`),
          filename: "long.jsonl",
        },
      },
    });
    expect(imported2.body).toMatchObject({ success: 1, data: { imported: LONG_CHAT_EXCHANGES * 2 } });

    // A group chat of both characters, answered.
    const group = await call(t.app, "GET", `/api/chat/group/new?cId=${characterId}`, { token });
    const groupId = /([0-9a-f-]{36})$/.exec(String(group.body.page))![1]!;
    const joined = await call(t.app, "GET", `/api/chat/group/member/add?gId=${groupId}&cId=${secondId}`, {
      token,
    });
    expect(joined.body.success).toBe(1);
    expect(
      (await post(token, "/api/chat/group/reply", { id: groupId, message: "Hello, both!", mute: "1" })).body
        .success,
    ).toBe(1);

    // The character writes first: opted in, and the check-in job runs once the chat is quiet.
    const due = Date.now() + 9 * HOUR;
    const zone = zoneWhere(due, 12);
    expect(
      (await post(token, "/api/chat/checkins", { id: characterId, enabled: "1", timeZone: zone })).body
        .success,
    ).toBe(1);
    expect(await t.checkins.sendDue(due)).toBe(1);

    // A device, a data export, a contact message.
    const device = await post(token, "/api/auth/devices", { name: "Drill phone" });
    const deviceId = (device.body.data as { deviceId: string }).deviceId;
    expect((await post(token, "/api/account/export", {})).status).toBe(200);
    const contact = await call(t.app, "POST", "/api/contact", {
      form: { name: "Ana", email: "ana@drill.test", subject: "Hello", message: "I love it" },
    });
    expect(contact.body.success).toBe(1);

    // Admin console: a model connection with an API key (the first one becomes the default: every
    // reply from here on comes from the endpoint double, sent the key), assigned to a plan too; an
    // invitation.
    const plans = (await call(t.app, "GET", "/api/admin/plans", { token: ownerToken })).body.data as Array<{
      id: string;
      name: string;
    }>;
    const planId = (name: string) => plans.find((p) => p.name === name)!.id;
    const connection = await modelsApi(t, ownerToken, "/create", {
      name: "Drill endpoint",
      kind: "openai",
      preset: "custom",
      baseUrl: endpoint.baseUrl,
      model: "m-a",
      maxTokens: 200,
      temperature: 0.5,
      contextSize: 4096,
      apiKey: API_KEY,
    });
    expect(connection.body).toMatchObject({ success: 1, data: { hasApiKey: true } });
    const connectionId = (connection.body.data as { id: string }).id;
    const assigned = await modelsApi(t, ownerToken, "/assign", {
      scope: "plan",
      targetId: planId("Basic Plan"),
      connectionId,
    });
    expect(assigned.body.success).toBe(1);
    const invitation = await admin("/api/admin/invitations", { email: INVITED, days: "7" });
    const { id: invitationId, link } = invitation.body.data as { id: string; link: string };

    // Mailed codes: a sign-up through the invitation and a password reset, both left unused.
    const invite = decodeURIComponent(link.split("invite=")[1]!);
    expect(
      (await call(t.app, "POST", "/api/auth/signup/start", { form: { email: INVITED, invite } })).body
        .success,
    ).toBe(1);
    const signupMail = await mail.waitFor(
      (m) => m.to === INVITED && m.subject.startsWith("Your sign-up code"),
    );
    const code = /\b(\d{6})\b/.exec(`${signupMail.subject}\n${signupMail.text}`)![1]!;
    expect(
      (await call(t.app, "POST", "/api/auth/forgot-password", { form: { email: RESETTER.email } })).body
        .success,
    ).toBe(1);
    const resetMail = await mail.waitFor(
      (m) => m.to === RESETTER.email && m.subject === "Reset your password",
    );
    const resetCode = /reset-password\/([\w-]+)/.exec(resetMail.text)![1]!;

    // YouTube: one person signed in (an identity), one sign-in begun and left (a state).
    userinfo = { sub: "yt-drill-subject", email: "fan@drill.test", email_verified: true, name: "Fan" };
    const oauthUserId = await youtubeSignIn(t);
    expect((await t.app.inject({ method: "GET", url: "/api/auth/oauth/youtube/start" })).statusCode).toBe(
      302,
    );

    // A free subscription asked for; a payment Stripe reports through its webhook.
    expect(
      (await call(t.app, "POST", "/api/users/free/subscribe/process", { form: { email: "free@drill.test" } }))
        .body.success,
    ).toBe(1);
    const event = signedEvent("checkout.session.completed", {
      id: "cs_test_drill",
      object: "checkout.session",
      mode: "subscription",
      status: "complete",
      payment_status: "paid",
      client_reference_id: payerId,
      customer: "cus_drill",
      subscription: "sub_drill",
      metadata: { userId: payerId, planId: planId("Premium"), purpose: "subscription" },
    });
    const paid = await t.app.inject({
      method: "POST",
      url: "/api/payment/webhook",
      headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": event.signature },
      payload: event.payload,
    });
    expect(paid.statusCode).toBe(200);

    // No route writes a set-up token once an owner exists (set-up is over): inserted directly.
    await t.db.db
      .insertInto("setup_tokens")
      .values({
        token_hash: "drill-unused-setup-token",
        expires_at: Date.now() + HOUR,
        created_at: Date.now(),
      })
      .execute();

    await t.jobs.idle();
    await t.images.idle();
    const cookie = await contentCookie(t, token);
    const served = await t.app.inject({
      url: `/content/${characterId}/${drawn.chatHistoryReplyImage}`,
      headers: { cookie },
    });
    expect(served.statusCode).toBe(200);
    return {
      ownerToken,
      memberId,
      characterId,
      groupId,
      editedEntryId: edited.chatHistoryUUID,
      picture: { chatId: characterId, file: drawn.chatHistoryReplyImage, bytes: served.rawPayload },
      deviceId,
      connectionId,
      invitation: { id: invitationId, link, code },
      resetCode,
      oauthUserId,
    };
  }

  /**
   * Members who chat: each made and heard once now (their chats exist before the drill); `start()`
   * sets them sending one message after another, each send recorded, until `stop()`.
   */
  async function prepareChatters() {
    const chatters: Array<{ token: string; characterId: string }> = [];
    for (let i = 0; i < CHATTERS; i++) {
      const s = await demoWithCharacter(t.app);
      const raised = await post(facts.ownerToken, `/api/admin/users/${s.userId}/limits`, {
        chatLimit: "100000",
      });
      expect(raised.body.success).toBe(1);
      const first = await post(s.token, "/api/chat/message", { id: s.characterId, message: "hi", mute: "1" });
      expect(first.body.success).toBe(1);
      chatters.push(s);
    }
    return {
      start() {
        let stopped = false;
        const loops = chatters.map(async (s, chatter) => {
          for (let n = 0; !stopped; n++) {
            const start = performance.now();
            const text = `Chatter ${chatter} says ${n}`;
            const res = await post(s.token, "/api/chat/message", {
              id: s.characterId,
              message: text,
              mute: "1",
            }).catch((error: unknown) => ({ status: 0, body: { success: 0, message: String(error) } }));
            const { success, message } = res.body;
            sends.push({
              chatter,
              text,
              start,
              end: performance.now(),
              status: res.status,
              success,
              message,
            });
          }
        });
        return {
          /** Whether every chatter has had an answer. */
          running: () => new Set(sends.map((s) => s.chatter)).size === CHATTERS,
          async stop() {
            stopped = true;
            await Promise.all(loops);
          },
        };
      },
    };
  }

  beforeAll(async () => {
    let started = performance.now();
    mail = await startMailCatcher();
    stripe = await startStripeDouble();
    images = await startImageDouble("automatic1111");
    embeddings = await startEmbeddingsDouble();
    endpoint = await startFakeEndpoint("Endpoint answers.", ["m-a", "m-b"]);
    await oauth.issuer.keys.generate("RS256");
    await oauth.start(0, "127.0.0.1");
    oauth.service.on("beforeUserinfo", (response: { body: unknown }) => {
      response.body = userinfo;
    });
    const issuer = oauth.issuer.url!;
    env = {
      PUBLIC_URL: "http://companion.test",
      SMTP_URL: mail.smtpUrl,
      REGISTRATION: "invite",
      TTS_PROVIDER: "espeak",
      IMAGE_PROVIDER: "automatic1111",
      IMAGE_BASE_URL: images.baseUrl,
      IMAGE_PORTRAIT_SIZE: "256x384",
      IMAGE_LANDSCAPE_SIZE: "384x256",
      EMBEDDING_BASE_URL: embeddings.baseUrl,
      EMBEDDING_MODEL: "drill",
      STRIPE_SECRET_KEY: TEST_STRIPE_KEY,
      STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
      OAUTH_YOUTUBE_CLIENT_ID: "companion-client",
      OAUTH_YOUTUBE_CLIENT_SECRET: "companion-secret",
      OAUTH_YOUTUBE_AUTHORIZE_URL: `${issuer}/authorize`,
      OAUTH_YOUTUBE_TOKEN_URL: `${issuer}/token`,
      OAUTH_YOUTUBE_USERINFO_URL: `${issuer}/userinfo`,
      YOUTUBE_API_BASE_URL: "http://127.0.0.1:9/youtube/v3",
      YOUTUBE_API_KEY: "yt-key",
      FREE_SUBSCRIBE_VIDEO_ID: "vid123",
      FREE_SUBSCRIBE_POLL_SECONDS: "3600",
      // On PostgreSQL an API key is stored only under a secret every instance shares; on SQLite the
      // key's secret is DATA_DIR/model-keys-secret, which the backup must carry.
      ...(dialect === "postgres" ? { MODEL_KEYS_SECRET: "the drill's model keys secret" } : {}),
    };
    t = await createTestApp({ dialect, llm, env });
    facts = await fill();
    const chatters = await prepareChatters();
    timings.fill = performance.now() - started;

    // The moment before the drill: no message in flight, no job running.
    await t.jobs.idle();
    filesBefore = filesUnder(t.config.contentDir);
    before = await readAllRows(backupSource(t.config));

    // The backup, taken while the members keep chatting; they go on a little after it.
    const chatting = chatters.start();
    stopChatters = chatting.stop;
    try {
      await until(() => chatting.running(), "every chatter answered");
      started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const taking = createBackup(backupSource(t.config), {
        dir: t.config.backupDir,
        passphrase: PASSPHRASE,
        reason: "drill",
      });
      // One still running when the drill gives up ends before the data directory is removed.
      backupSettled = taking.then(
        () => {},
        () => {},
      );
      backup = await Promise.race([
        taking,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new Error(`the backup did not finish within ${BACKUP_LIMIT_MS} ms while members chatted`),
              ),
            BACKUP_LIMIT_MS,
          );
        }),
      ]).finally(() => clearTimeout(timer));
      backupWindow = { start: started, end: performance.now() };
      const count = sends.length;
      await until(() => sends.length >= count + CHATTERS, "the chatters went on after the backup");
    } finally {
      await chatting.stop();
    }
    await t.jobs.idle();
    after = await readAllRows(backupSource(t.config));
    timings.backup = backupWindow.end - backupWindow.start;

    // Restored into an empty data directory (and an empty PostgreSQL database).
    started = performance.now();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "companion-restored-"));
    const database =
      dialect === "postgres"
        ? await createTestDatabase("companion_restored")
        : { url: "", drop: async () => {} };
    target = { dataDir, config: testConfig(dataDir, database.url, env), drop: database.drop };
    restored = await restoreBackup(backup.file, backupSource(target.config), {
      passphrase: PASSPHRASE,
      force: false,
      backupDir: target.config.backupDir,
      log: () => {},
    });
    restoredRows = await readAllRows(backupSource(target.config));
    timings.restore = performance.now() - started;
  }, 120_000);

  afterAll(async () => {
    await stopChatters();
    await backupSettled;
    console.log(
      `restore drill [${dialect}] ms:`,
      JSON.stringify(Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v)]))),
    );
    await restoredApp?.close();
    await t?.dispose();
    await target?.drop();
    if (target) fs.rmSync(target.dataDir, { recursive: true, force: true });
    await mail?.close();
    await stripe?.close();
    await images?.close();
    await embeddings?.close();
    await endpoint?.close();
    await oauth.stop().catch(() => {});
  });

  it("the API (and a direct insert where none reaches) leaves no table of the database empty", () => {
    const empty = Object.entries(before)
      .filter(([name, table]) => !isBookkeeping(name) && table.rows.size === 0)
      .map(([name]) => name);
    expect(empty, "tables without a row").toEqual([]);
    // The listing is the database's own: it holds the tables of every area.
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining([
        ...["users", "auth_tokens", "characters", "chat_history", "chat_reply_swipes", "memories"],
        ...["image_jobs", "payment_events", "model_connections", "message_vectors", "signup_codes"],
        ...(dialect === "sqlite" ? ["message_search", "message_recall", "message_search_rows"] : []),
      ]),
    );
  });

  it("members kept chatting through the backup, and not one send failed", () => {
    const failed = sends.filter((s) => s.status !== 200 || s.success !== 1);
    expect(failed, "sends refused or failed").toEqual([]);
    const during = sends.filter((s) => s.start < backupWindow.end && s.end > backupWindow.start);
    expect(during.length, "sends answered while the backup ran").toBeGreaterThan(0);
    timings.sendsDuringBackup = during.length;
  });

  /**
   * The source as of the backup lies between two readings: `before` (quiet, just before the
   * chatters began) and `after` (quiet again, after they stopped). Chatting adds rows and updates
   * some, never deletes one. So, table by table: the restored count is the manifest's, between
   * the two; a table the chatters left alone is restored row for row as it was; in the others
   * every row of before is there, every restored row is in the source, and each value equals the
   * source's unless that value changed during the drill (or, for a row written during the drill,
   * is one FILLED_LATER lists).
   */
  function drillDifferences(): string[] {
    const lines: string[] = [];
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    const touched: string[] = [];
    for (const [name, now] of Object.entries(after)) {
      const then = before[name];
      const got = restoredRows[name];
      if (!then || !got) {
        lines.push(`${name}: ${got ? "not in the source before the backup" : "not restored"}`);
        continue;
      }
      if (rowDifferences({ [name]: then }, { [name]: now }).length === 0) {
        lines.push(...rowDifferences({ [name]: then }, { [name]: got }, { limit: 10 }));
        continue;
      }
      touched.push(name);
      for (const [id, row] of got.rows) {
        const current = now.rows.get(id);
        if (!current) {
          lines.push(`${name}: restored row ${id} is not in the source`);
          continue;
        }
        const earlier = then.rows.get(id);
        for (const c of now.columns) {
          if (same(row[c], current[c])) continue;
          const changed = earlier ? !same(earlier[c], current[c]) : (FILLED_LATER[name] ?? []).includes(c);
          if (!changed)
            lines.push(`${name} ${id}: ${c} ${JSON.stringify(row[c])} ≠ ${JSON.stringify(current[c])}`);
        }
      }
      for (const id of then.rows.keys()) if (!got.rows.has(id)) lines.push(`${name}: row ${id} is lost`);
    }
    for (const name of Object.keys(restoredRows)) if (!after[name]) lines.push(`${name}: not in the source`);
    console.log(`restore drill [${dialect}]: tables the chatting changed: ${touched.sort().join(", ")}`);
    return lines.slice(0, 60);
  }

  it("the restored database is the backup's moment: the manifest's counts, every row as in the source", () => {
    const counts = backup.manifest.database.rowCounts;
    const problems: string[] = [];
    for (const [name, table] of Object.entries(restoredRows)) {
      const n = counts[name] ?? -1;
      if (n !== table.rows.size)
        problems.push(`${name}: ${table.rows.size} rows restored, the manifest says ${n}`);
      if (n < (before[name]?.rows.size ?? 0) || n > (after[name]?.rows.size ?? 0))
        problems.push(`${name}: the manifest's ${n} rows are not between the source's before and after`);
    }
    // Every message answered before the backup began is in it.
    const stored = new Set([...restoredRows.chat_history!.rows.values()].map((r) => r.message));
    const answered = sends.filter((s) => s.end < backupWindow.start);
    expect(answered.length).toBeGreaterThan(0);
    for (const send of answered)
      if (!stored.has(send.text))
        problems.push(`chat_history: "${send.text}", answered before the backup, is missing`);
    problems.push(...drillDifferences());
    expect(problems).toEqual([]);
    if (dialect === "sqlite") {
      // The search index's rows follow the restored entries (its triggers' table), and SQLite
      // finds the file whole and every foreign key satisfied.
      const entries = [...restoredRows.chat_history!.rows.values()].map((r) => r.id).sort();
      expect([...restoredRows.message_search_rows!.rows.values()].map((r) => r.entry_id).sort()).toEqual(
        entries,
      );
      const file = new SQLite(sqliteFile("", target.config.dataDir), { readonly: true });
      try {
        expect(file.pragma("integrity_check", { simple: true })).toBe("ok");
        expect(file.pragma("foreign_key_check")).toEqual([]);
      } finally {
        file.close();
      }
    }
  });

  it("every stored file and secret is restored byte for byte", () => {
    const restoredFiles = filesUnder(target.config.contentDir);
    const sourceFiles = filesUnder(t.config.contentDir);
    const differing = [...restoredFiles]
      .filter(([key, bytes]) => !sourceFiles.get(key)?.equals(bytes))
      .map(([key]) => key);
    expect(differing, "restored files unlike the source's").toEqual([]);
    const missing = [...filesBefore]
      .filter(([key, bytes]) => !restoredFiles.get(key)?.equals(bytes))
      .map(([key]) => key);
    expect(missing, "files of before the backup not restored").toEqual([]);
    expect(restored.files).toBe(restoredFiles.size);
    // Each kind of stored file was there to restore.
    const keys = [...restoredFiles.keys()];
    for (const prefix of ["characters/", "voice/", `${facts.characterId}/user_photo/`, "exports/"])
      expect(
        keys.some((k) => k.startsWith(prefix)),
        prefix,
      ).toBe(true);
    expect(keys).toContain(`${facts.picture.chatId}/${facts.picture.file}`);
    for (const secret of ["content-secret", "model-keys-secret"]) {
      const source = path.join(t.config.dataDir, secret);
      if (!fs.existsSync(source)) continue;
      const copy = path.join(target.config.dataDir, secret);
      expect(fs.readFileSync(copy), secret).toEqual(fs.readFileSync(source));
      expect(fs.statSync(copy).mode & 0o777).toBe(0o600);
    }
    expect(fs.existsSync(path.join(t.config.dataDir, "content-secret"))).toBe(true);
    if (dialect === "sqlite")
      expect(fs.existsSync(path.join(t.config.dataDir, "model-keys-secret"))).toBe(true);
  });

  it("a server on the restored data chats, signs members in, and reads every secret it stored", async () => {
    restoredApp = await buildApp(target.config, { llm });
    const r = restoredApp;
    // The member's password (its argon2 hash) and chats: the edits and the swipes are there.
    const { token, user } = await signIn(r, MEMBER.email, MEMBER.password);
    expect(user.id).toBe(facts.memberId);
    const entries = await history(r, token, facts.characterId);
    expect(entries.find((e) => e.chatHistoryUUID === facts.editedEntryId)).toMatchObject({
      chatHistoryMessage: "I like coffee, really.",
      chatHistoryReplyMessage: "Coffee it is, then.",
    });
    expect(entries.some((e) => (e.chatHistorySwipes?.length ?? 0) >= 2)).toBe(true);
    // The chat is answered by the connection the admin made the default (the model double over
    // HTTP), with its API key decrypted by the restored DATA_DIR/model-keys-secret (SQLite) or
    // MODEL_KEYS_SECRET (PostgreSQL).
    const asked = endpoint.chats.length;
    const answer = await call(r.app, "POST", "/api/chat/message", {
      token,
      form: { id: facts.characterId, message: "Are you still there?", mute: "1" },
    });
    expect(answer.body).toMatchObject({ success: 1 });
    expect((answer.body as unknown as MessageReply).text).toBe("Endpoint answers.");
    expect(endpoint.chats.length).toBeGreaterThan(asked);
    expect(endpoint.authorizations.at(-1)).toBe(`Bearer ${API_KEY}`);
    const group = await call(r.app, "POST", "/api/chat/group/reply", {
      token,
      form: { id: facts.groupId, message: "Both of you?", mute: "1" },
    });
    expect(group.body.success).toBe(1);

    // A picture of the chat, through the restored server's own picture cookie.
    const cookie = await contentCookie(r, token);
    const picture = await r.app.inject({
      url: `/content/${facts.picture.chatId}/${facts.picture.file}`,
      headers: { cookie },
    });
    expect(picture.statusCode).toBe(200);
    expect(picture.rawPayload.equals(facts.picture.bytes)).toBe(true);

    // The admin console lists the endpoint's models with the stored key too.
    const owner = await signIn(r, OWNER.email, OWNER.password);
    const listed = await modelsApi({ app: r.app }, owner.token, "/list", { id: facts.connectionId });
    expect(listed.body).toMatchObject({ success: 1, data: { models: ["m-a", "m-b"] } });
    expect(endpoint.authorizations.at(-1)).toBe(`Bearer ${API_KEY}`);

    // The invitation's link is signed with the restored content secret; its mailed code still works.
    const invitations = await call(r.app, "GET", "/api/admin/invitations", { token: owner.token });
    expect(invitations.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: facts.invitation.id, link: facts.invitation.link }),
      ]),
    );
    const invite = decodeURIComponent(facts.invitation.link.split("invite=")[1]!);
    const signedUp = await call(r.app, "POST", "/api/auth/signup/finish", {
      form: {
        email: INVITED,
        code: facts.invitation.code,
        password: "invited-password-1",
        name: "Ivy",
        invite,
      },
    });
    expect(signedUp.body).toMatchObject({ success: 1 });

    // The password reset mailed before the backup, a registered device, a YouTube identity.
    const reset = await r.app.inject({
      method: "PATCH",
      url: "/api/users/change-password",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        code: facts.resetCode,
        npassword: "new-password-2",
        rtpassword: "new-password-2",
      }).toString(),
    });
    expect(reset.statusCode).toBe(200);
    await signIn(r, RESETTER.email, "new-password-2");
    const device = await call(r.app, "POST", "/api/auth/device-login", { form: { id: facts.deviceId } });
    expect(device.body.success).toBe(1);
    expect(await youtubeSignIn(r)).toBe(facts.oauthUserId);
  });
});
