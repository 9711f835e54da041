// The owned-character reads shared by the conversation and the characters module: a user's characters, one owned character.
import type { Db } from "../../db/index";
import { firstRow, preparedQuery } from "../../db/prepared";
import type { Character } from "../../db/schema";

/**
 * The one home of the owned-character reads: the conversation resolves a chat with
 * them and the characters module lists and opens the user's characters with them. Functions of
 * the database, not a repo, so each module keeps its own repo and neither reaches into the other.
 */

/** The user's characters, oldest first (creation time, then id: a stable order for equal times). */
export function charactersOfUser(db: Db, userId: string) {
  return db
    .selectFrom("characters")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .orderBy("id");
}

/** A character only when it belongs to `userId`; undefined for an unknown id or another user's. */
export function findOwnedCharacter(db: Db, userId: string, id: string): Promise<Character | undefined> {
  return firstRow(ownedCharacter(db, { id, userId }));
}

const ownedCharacter = preparedQuery((db, p: { id: string; userId: string }) =>
  db.selectFrom("characters").selectAll().where("id", "=", p.id).where("user_id", "=", p.userId),
);
