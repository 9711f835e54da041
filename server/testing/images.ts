import type { TestApp } from "./server";

/** Gives a user the plan flags of pictures (il = '1') and, optionally, uncensored pictures. */
export async function allowPictures(app: TestApp, userId: string, uncensored = false): Promise<void> {
  await app.db.db
    .updateTable("users")
    .set({ image_generation: 1, uncensored: uncensored ? 1 : 0 })
    .where("id", "=", userId)
    .execute();
}
