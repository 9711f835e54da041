// Seeding on first start: languages, voices, plans and preset characters, and drawing any missing content pictures; safe at every start.
import { randomUUID } from "node:crypto";
import type { FileStorage } from "../providers/storage/storage";
import { renderAvatarJpeg, renderDefaultPictureJpeg, renderPlanImageJpeg } from "./avatars";
import type { Db } from "./index";
import { SEED_LANGUAGES, SEED_PLANS, SEED_PRESETS, SEED_VOICES } from "./seed-data";

/**
 * Seeds languages, voices, plans and preset characters on first start (when there are no
 * plans yet), and draws any missing content files (preset avatars, the fallback user.jpg).
 * Idempotent: safe at every start.
 */
export async function seed(db: Db, storage: FileStorage): Promise<void> {
  const existing = await db.selectFrom("plans").select("id").limit(1).executeTakeFirst();
  if (!existing) {
    try {
      await seedTables(db);
    } catch (error) {
      // Replicas starting together on a new database: another one seeded it first
      // (its transaction committed; ours met a unique key and rolled back whole).
      if (!(await db.selectFrom("plans").select("id").limit(1).executeTakeFirst())) throw error;
    }
  }
  await drawMissingPictures(db, storage);
}

/** Inserts the seed rows in one transaction. @throws the database's error (e.g. a unique key). */
async function seedTables(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("plans")
      .values(
        SEED_PLANS.map((p, i) => ({
          ...p,
          id: randomUUID(),
          url: "/login",
          image: `plan-${i + 1}.jpg`,
          sort_order: i,
        })),
      )
      .execute();
    const languages = SEED_LANGUAGES.map((l, i) => ({ id: randomUUID(), ...l, sort_order: i }));
    await trx.insertInto("languages").values(languages).execute();
    await trx
      .insertInto("voices")
      .values(SEED_VOICES.map((v) => ({ id: randomUUID(), ...v })))
      .execute();
    const english = languages[0]!.id;
    await trx
      .insertInto("preset_characters")
      .values(
        SEED_PRESETS.map((p, i) => ({
          id: randomUUID(),
          name: p.name,
          sex: p.sex,
          voice: p.sex === "0" ? "English Female" : "English Male",
          language_id: english,
          description: p.description,
          greeting: p.greeting,
          appearance: p.appearance,
          photo: `${p.name.toLowerCase()}.jpg`,
          sort_order: i,
        })),
      )
      .execute();
  });
}

async function drawMissingPictures(db: Db, storage: FileStorage): Promise<void> {
  if (!(await storage.exists("user.jpg"))) await storage.put("user.jpg", await renderDefaultPictureJpeg());
  const plans = await db.selectFrom("plans").select(["name", "image", "sort_order"]).execute();
  for (const plan of plans) {
    const key = `pricing/${plan.image}`;
    if (!(await storage.exists(key)))
      await storage.put(key, await renderPlanImageJpeg(plan.name, plan.sort_order));
  }
  const presets = await db.selectFrom("preset_characters").select(["name", "photo", "sex"]).execute();
  for (const preset of presets) {
    const key = `predefined-characters/${preset.photo}`;
    if (await storage.exists(key)) continue;
    const look = SEED_PRESETS.find((p) => p.name === preset.name)?.look ?? {
      top: preset.sex === "0" ? "straight02" : "shortFlat",
      background: "d1d4f9",
      skin: "edb98a",
      hair: "4a312c",
    };
    await storage.put(key, await renderAvatarJpeg(preset.name, { ...look, male: preset.sex === "1" }));
  }
}
