import { unsign } from "@fastify/cookie";
import { describe, expect, it } from "vitest";
import type { User } from "../../db/schema";
import {
  ContentAccess,
  type ContentCookie,
  contentCookieValue,
  type SessionLookup,
  sessionHash,
} from "./content-access";
import type { ContentAccessRepo } from "./content-access.repo";

/**
 * The picture cookie's signature, without a database: a grant signed with the key before a
 * rotation still opens the pictures and is re-signed with the current key on the next API
 * answer; a tampered signature, or one of a key no longer listed, opens nothing.
 */

const NOW = 1_800_000_000_000;
const USER = "0f8fad5b-d9cb-469f-a165-70867728950e";
const CHAT = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
const BEARER = "bearer-token-of-the-session";

/** Every chat is the user's, every session open: only the signature decides. */
const repo = { ownsChat: async () => true } as unknown as ContentAccessRepo;
const sessions: SessionLookup = {
  findSession: async (hash) =>
    hash === sessionHash(BEARER)
      ? { user: { id: USER } as User, startedAt: NOW - 1000, expiresAt: NOW + 86_400_000 }
      : undefined,
};
const access = (secrets: string | string[]) => new ContentAccess(repo, sessions, secrets, () => NOW);
/** A grant issued half an hour ago: fresh, so only its key can make the server issue it anew. */
const grant: ContentCookie = {
  userId: USER,
  expiresAt: NOW + 23.5 * 3_600_000,
  session: sessionHash(BEARER),
};

describe("the picture cookie's signature and key rotation", () => {
  it("accepts a grant of the key before a rotation and re-signs it with the current key", async () => {
    const old = contentCookieValue("old-secret", grant);
    expect(await access(["new-secret", "old-secret"]).mayRead(old, CHAT)).toBe(true);
    // Before the rotation's second key is listed, or after it is dropped: refused.
    expect(await access("new-secret").mayRead(old, CHAT)).toBe(false);

    const update = access(["new-secret", "old-secret"]).cookieFor(USER, BEARER, old);
    expect(update).toBeDefined();
    expect(unsign(update!.value, "new-secret").valid).toBe(true);
    expect(await access("new-secret").mayRead(update!.value, CHAT)).toBe(true);
  });

  it("leaves a fresh grant of the current key alone", () => {
    const current = contentCookieValue("new-secret", grant);
    expect(access(["new-secret", "old-secret"]).cookieFor(USER, BEARER, current)).toBeUndefined();
  });

  it("refuses a tampered signature, a changed payload and an unsigned grant", async () => {
    const signed = contentCookieValue("new-secret", grant);
    const mac = signed.slice(signed.lastIndexOf(".") + 1);
    const flipped = `${signed.slice(0, -mac.length)}${mac[0] === "A" ? "B" : "A"}${mac.slice(1)}`;
    const later = signed.replace(`.${grant.expiresAt}.`, `.${grant.expiresAt + 1}.`);
    const unsigned = `${USER}.${grant.expiresAt}.${grant.session}`;
    expect(await access("new-secret").mayRead(signed, CHAT)).toBe(true);
    for (const forged of [flipped, later, unsigned, `${unsigned}.`, ""]) {
      expect(await access(["new-secret", "old-secret"]).mayRead(forged, CHAT)).toBe(false);
    }
  });
});
