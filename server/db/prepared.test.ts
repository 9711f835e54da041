import { afterAll, beforeAll, expect, it } from "vitest";
import { demoWithCharacter, describeEachDatabase } from "../testing/api";
import { createTestApp, type TestApp } from "../testing/server";
import { changedRows, firstRow, preparedQuery } from "./prepared";

/** Queries compiled once and run with new values, on SQLite and PostgreSQL. */
describeEachDatabase("prepared queries", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const characterName = preparedQuery((db, p: { id: string; userId: string }) =>
    db.selectFrom("characters").select("name").where("id", "=", p.id).where("user_id", "=", p.userId),
  );
  const rename = preparedQuery((db, p: { id: string; name: string }) =>
    db.updateTable("characters").set({ name: p.name }).where("id", "=", p.id),
  );

  it("runs one compiled query with each call's values, in the database and in a transaction", async () => {
    const a = await demoWithCharacter(t.app);
    const b = await demoWithCharacter(t.app);
    expect(await changedRows(rename(t.db.db, { id: a.characterId, name: "Ada" }))).toBe(1);
    expect(await changedRows(rename(t.db.db, { id: b.characterId, name: "Bea" }))).toBe(1);
    expect(await firstRow(characterName(t.db.db, { id: a.characterId, userId: a.userId }))).toEqual({
      name: "Ada",
    });
    expect(await firstRow(characterName(t.db.db, { id: b.characterId, userId: b.userId }))).toEqual({
      name: "Bea",
    });
    // Another user's id finds nothing: the values are not those of the first run.
    expect(await firstRow(characterName(t.db.db, { id: a.characterId, userId: b.userId }))).toBeUndefined();
    await expect(
      t.db.db.transaction().execute(async (trx) => {
        await rename(trx, { id: a.characterId, name: "Undone" });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await firstRow(characterName(t.db.db, { id: a.characterId, userId: a.userId }))).toEqual({
      name: "Ada",
    });
  });

  it("refuses a parameter that is not used as a value", async () => {
    const shaped = preparedQuery((db, p: { id: string; column: string }) =>
      db
        .selectFrom("characters")
        .select("name")
        .where("id", "=", p.id)
        .$if(Boolean(p.column), (q) => q),
    );
    await expect(shaped(t.db.db, { id: "x", column: "name" })).rejects.toThrow("column not used as values");
  });
});
