import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../server/testing/api";
import { http, type Session, signInMember } from "./support/fixtures";
import { exchange } from "./support/raw-http";
import { type ListeningApp, startListening } from "./support/server";

/**
 * "Erase my account" attacked over a real socket: `POST /api/account/delete` acts only
 * on the user of the token, only with that user's password; a request without a valid token is
 * answered 401 before its body is read; guessing the password through it is rate-limited.
 */
describeEachDatabase("account erasure attacks", (dialect) => {
  let server: ListeningApp;
  let victim: Session;
  let attacker: Session;
  const victimEmail = "victim-erase@example.com";
  const victimPassword = "victim password 1";

  beforeAll(async () => {
    server = await startListening({ dialect, env: { RATE_LIMIT_ENABLED: "1" } });
    victim = await signInMember(server, victimEmail, victimPassword);
    attacker = await signInMember(server, "attacker-erase@example.com", "attacker password 2");
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  const victimExists = async () =>
    (await server.db.db.selectFrom("users").select("id").where("id", "=", victim.userId).execute()).length ===
    1;

  it("answers 401 without a valid token before the body arrives (only the head is sent)", async () => {
    for (const authorization of ["", "authorization: Bearer not-a-real-token\r\n"]) {
      const response = await exchange(
        "127.0.0.1",
        Number(new URL(server.url).port),
        (socket) => {
          // A body is declared but never sent: a server that read it first would wait for it.
          socket.write(
            "POST /api/account/delete HTTP/1.1\r\nhost: localhost\r\n" +
              "content-type: application/x-www-form-urlencoded\r\ncontent-length: 500\r\n" +
              `${authorization}\r\n`,
          );
        },
        15_000,
      );
      expect(response.status).toBe(401);
    }
    expect(await victimExists()).toBe(true);
  });

  it("another user's token with the victim's password and id erases no one", async () => {
    const answer = await http(server.url, "POST", "/api/account/delete", {
      token: attacker.token,
      form: { password: victimPassword, confirm: victimEmail, id: victim.userId, userId: victim.userId },
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ success: 0, code: "wrong_password" });
    expect(await victimExists()).toBe(true);
    const profile = await http(server.url, "GET", "/api/users/profile/", { token: attacker.token });
    expect(profile.status).toBe(200);
  });

  it("limits password guesses through the erasure to 5 per 15 minutes", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const answer = await http(server.url, "POST", "/api/account/delete", {
        token: victim.token,
        form: { password: `guess ${i}` },
      });
      statuses.push(answer.status);
    }
    // The earlier test spent one try from this address.
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(5);
    expect(statuses.at(-1)).toBe(429);
    expect(await victimExists()).toBe(true);
  });
});
