import { afterAll, beforeAll, expect, it } from "vitest";
import { call, callMultipart, demoLogin, describeEachDatabase } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";
import { readPngTextChunks } from "./png-chunks";

/** A V2 card (JSON) whose book has a constant, a selective and a plain entry, with unknown fields. */
const cardWithBook = (book: unknown) =>
  Buffer.from(
    JSON.stringify({
      spec: "chara_card_v2",
      spec_version: "2.0",
      data: {
        name: "Ysolde",
        description: "Queen of the floating islands.",
        first_mes: "Welcome.",
        character_book: book,
      },
    }),
  );

const book = {
  name: "Eldoria",
  scan_depth: 3,
  token_budget: 400,
  recursive_scanning: true,
  extensions: { some_tool: { x: 1 } },
  entries: [
    {
      id: 1,
      keys: [],
      content: "Eldoria is a kingdom of floating islands.",
      enabled: true,
      constant: true,
      insertion_order: 100,
      position: "before_char",
      extensions: {},
      unknown_field: "ignored",
    },
    {
      id: 2,
      keys: ["amulet"],
      secondary_keys: ["throne"],
      selective: true,
      content: "The amulet was stolen from the throne room.",
      enabled: true,
      insertion_order: 50,
      case_sensitive: true,
      position: "after_char",
      comment: "the theft",
      extensions: {},
    },
  ],
};

describeEachDatabase("lorebooks: storage, import, export and ownership", (dialect) => {
  let t: TestApp;
  let token = "";
  let languageId = "";
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const s = await demoLogin(t.app);
    token = s.token;
    await t.db.db.updateTable("users").set({ character_limit: 50 }).where("id", "=", s.userId).execute();
    const res = await call(t.app, "GET", "/api/characters/languages", { token });
    languageId = (res.body.languages as Array<{ languageUUID: string }>)[0]!.languageUUID;
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const importCard = (bytes: Buffer, as = token) =>
    callMultipart(t.app, "/api/characters/import", {
      token: as,
      files: { card: { bytes, filename: "card.json", type: "application/json" } },
    });
  const detail = (id: string, as = token) => call(t.app, "GET", `/api/characters/?id=${id}`, { token: as });
  const form = (extra: Record<string, string> = {}) => ({
    name: "Nova",
    sex: "0",
    voice: "English Female",
    language: languageId,
    description: "A starship pilot.",
    ...extra,
  });
  type Book = { entries: Array<Record<string, unknown>>; scan_depth?: number; recursive_scanning?: boolean };

  it("imports a V2 card's character_book and reads it back; the export writes it back", async () => {
    const imported = await importCard(cardWithBook(book));
    expect(imported.body.success).toBe(1);
    const id = (imported.body.data as { characterUUID: string }).characterUUID;
    const got = (await detail(id)).body.data as { characterLorebook: Book };
    expect(got.characterLorebook.scan_depth).toBe(3);
    expect(got.characterLorebook.recursive_scanning).toBe(true);
    expect(got.characterLorebook.entries).toHaveLength(2);
    expect(got.characterLorebook.entries[0]).toMatchObject({
      content: "Eldoria is a kingdom of floating islands.",
      constant: true,
      position: "before_char",
      insertion_order: 100,
    });
    expect(got.characterLorebook.entries[0]).not.toHaveProperty("unknown_field");
    expect(got.characterLorebook.entries[1]).toMatchObject({
      keys: ["amulet"],
      secondary_keys: ["throne"],
      selective: true,
      case_sensitive: true,
      comment: "the theft",
    });

    const exported = await t.app.inject({
      method: "GET",
      url: `/api/characters/export/?id=${id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    const chara = readPngTextChunks(exported.rawPayload).get("chara")!;
    const card = JSON.parse(Buffer.from(chara, "base64").toString("utf8")) as {
      data: { character_book: Book };
    };
    expect(card.data.character_book.entries.map((e) => e.content)).toEqual([
      "Eldoria is a kingdom of floating islands.",
      "The amulet was stolen from the throne room.",
    ]);
  });

  it("creates and updates a character with a lorebook from the form; an empty one removes it", async () => {
    const lorebook = JSON.stringify({ entries: [{ keys: ["jazz"], content: "Nova plays the saxophone." }] });
    const created = await callMultipart(t.app, "/api/characters/create", {
      token,
      fields: form({ lorebook }),
    });
    expect(created.body.success).toBe(1);
    const id = (created.body.data as { characterUUID: string }).characterUUID;
    const first = (await detail(id)).body.data as { characterLorebook: Book };
    expect(first.characterLorebook.entries[0]).toMatchObject({
      keys: ["jazz"],
      content: "Nova plays the saxophone.",
      enabled: true,
      position: "after_char",
    });

    // Sent as a file part, as the browser does (text fields are capped at 64 KB).
    const big = JSON.stringify({
      entries: Array.from({ length: 60 }, (_, i) => ({ keys: [`k${i}`], content: "x".repeat(1500) })),
    });
    const updated = await callMultipart(t.app, "/api/characters/update", {
      token,
      fields: form({ id }),
      files: { lorebook: { bytes: Buffer.from(big), filename: "lorebook.json", type: "application/json" } },
    });
    expect(updated.body.success).toBe(1);
    expect(
      ((await detail(id)).body.data as { characterLorebook: Book }).characterLorebook.entries,
    ).toHaveLength(60);

    // Without the field the stored book is kept; with '' it is removed.
    await callMultipart(t.app, "/api/characters/update", { token, fields: form({ id, name: "Nova B" }) });
    expect(
      ((await detail(id)).body.data as { characterLorebook: Book }).characterLorebook.entries,
    ).toHaveLength(60);
    await callMultipart(t.app, "/api/characters/update", { token, fields: form({ id, lorebook: "" }) });
    expect(((await detail(id)).body.data as { characterLorebook: Book | null }).characterLorebook).toBeNull();
  });

  it("another user can neither read nor change the lorebook", async () => {
    const imported = await importCard(cardWithBook(book));
    const id = (imported.body.data as { characterUUID: string }).characterUUID;
    const other = await demoLogin(t.app);
    const read = await detail(id, other.token);
    expect(read.status).toBe(404);
    expect(JSON.stringify(read.body)).not.toContain("amulet");
    const change = await callMultipart(t.app, "/api/characters/update", {
      token: other.token,
      fields: form({ id, lorebook: JSON.stringify({ entries: [{ keys: ["x"], content: "hijacked" }] }) }),
    });
    expect(change.status).toBe(404);
    const mine = (await detail(id)).body.data as { characterLorebook: Book };
    expect(mine.characterLorebook.entries.map((e) => e.content)).not.toContain("hijacked");
    expect(mine.characterLorebook.entries).toHaveLength(2);
  });

  it("refuses an oversized or malformed book with a sentence", async () => {
    const tooMany = { entries: Array.from({ length: 201 }, (_, i) => ({ keys: [`k${i}`], content: "x" })) };
    const refusedImport = await importCard(cardWithBook(tooMany));
    expect(refusedImport.status).toBe(400);
    expect(refusedImport.body.message).toBe(
      "The card's lorebook was refused: A lorebook can have at most 200 entries.",
    );
    const longContent = await callMultipart(t.app, "/api/characters/create", {
      token,
      fields: form({ lorebook: JSON.stringify({ entries: [{ keys: ["a"], content: "x".repeat(2001) }] }) }),
    });
    expect(longContent.status).toBe(400);
    expect(longContent.body.message).toBe("The content of lorebook entry 1 must be at most 2000 characters.");
    const notJson = await callMultipart(t.app, "/api/characters/create", {
      token,
      fields: form({ lorebook: "{entries: oops" }),
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toBe("The lorebook is not valid JSON.");
    const badKeys = await importCard(cardWithBook({ entries: [{ keys: "amulet", content: "x" }] }));
    expect(badKeys.status).toBe(400);
    expect(badKeys.body.message).toBe(
      "The card's lorebook was refused: The keys of lorebook entry 1 must be a list of words.",
    );
  });
});
