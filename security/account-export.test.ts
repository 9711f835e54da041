import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../server/testing/api";
import { contentCookieOf, http, type Session, signInMember } from "./support/fixtures";
import { rawRequest } from "./support/raw-http";
import { type ListeningApp, startListening } from "./support/server";

/** The first bytes of a ZIP (a local file header). */
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const isZip = (bytes: Buffer) => bytes.subarray(0, 4).equals(ZIP_MAGIC);

/**
 * "Take my data" attacked over a real socket: another user's export cannot be read by
 * its id (the same 404 as an unknown id), and the ZIP in the content area is reachable through no
 * /content/ path, not even with its owner's picture cookie or with traversal and encoded slashes.
 */
describeEachDatabase("data export attacks", (dialect) => {
  let server: ListeningApp;
  let victim: Session;
  let attacker: Session;
  let exportId: string;
  let fileKey: string;

  beforeAll(async () => {
    server = await startListening({ dialect });
    victim = await signInMember(server, "victim-export@example.com", "victim password 1");
    attacker = await signInMember(server, "attacker-export@example.com", "attacker password 2");
    const started = await http(server.url, "POST", "/api/account/export", { token: victim.token, form: {} });
    exportId = (started.json.export as { id: string }).id;
    await server.jobs.idle();
    const row = await server.db.db
      .selectFrom("data_exports")
      .selectAll()
      .where("id", "=", exportId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("ready");
    fileKey = row.file_key;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it("the owner downloads the ZIP (the attacks below would otherwise get it)", async () => {
    const own = await http(server.url, "GET", `/api/account/export/${exportId}/download`, {
      token: victim.token,
    });
    expect(own.status).toBe(200);
    expect(isZip(own.raw)).toBe(true);
    expect(await server.storage.exists(fileKey)).toBe(true);
  });

  it("another user's token gets the same 404 for the victim's export id as for an unknown id", async () => {
    const stolen = await http(server.url, "GET", `/api/account/export/${exportId}/download`, {
      token: attacker.token,
    });
    const unknown = await http(
      server.url,
      "GET",
      "/api/account/export/00000000-0000-4000-8000-000000000000/download",
      {
        token: attacker.token,
      },
    );
    for (const answer of [stolen, unknown]) {
      expect(answer.status).toBe(404);
      expect(isZip(answer.raw)).toBe(false);
    }
    expect(stolen.json).toEqual(unknown.json);
    // The status route shows the attacker only their own (none).
    const status = await http(server.url, "GET", "/api/account/export", { token: attacker.token });
    expect(status.json.export).toBeNull();
    expect(status.raw.toString()).not.toContain(exportId);
    // Ids in the query or the body are not read: only the token's user counts.
    const query = await http(
      server.url,
      "GET",
      `/api/account/export?id=${exportId}&userId=${victim.userId}`,
      {
        token: attacker.token,
      },
    );
    expect(query.json.export).toBeNull();
    // No token, or a forged one.
    for (const token of [undefined, "forged-token"])
      expect(
        (await http(server.url, "GET", `/api/account/export/${exportId}/download`, { token })).status,
      ).toBe(401);
  });

  it("the ZIP is served by no /content/ path, even with its owner's picture cookie", async () => {
    const cookie = await contentCookieOf(server.url, victim.token);
    const [, userId, file] = fileKey.split("/");
    expect(userId).toBe(victim.userId);
    const targets = [
      `/content/${fileKey}`,
      `/content/exports/${userId}/${file}`,
      `/content/exports%2F${userId}%2F${file}`,
      `/content/users/../exports/${userId}/${file}`,
      `/content/characters/..%2Fexports/${userId}/${file}`,
      `/content//exports/${userId}/${file}`,
      `/content/./exports/${userId}/${file}`,
      `/content/${userId}/../exports/${userId}/${file}`,
      `/content/${victim.userId}/${file}`,
      `/content/exports/${userId}/`,
      `/content/exports/`,
    ];
    for (const target of targets) {
      for (const method of ["GET", "HEAD"]) {
        const answer = await rawRequest(server.url, method, target, { headers: { cookie } });
        expect(answer.status, `${method} ${target}`).toBe(404);
        expect(isZip(answer.body), target).toBe(false);
        expect(answer.headers["content-type"] ?? "", target).not.toContain("zip");
      }
    }
    expect(await server.storage.exists(fileKey)).toBe(true);
  });
});
