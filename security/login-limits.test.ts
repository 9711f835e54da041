import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../server/testing/server";

/**
 * Credential stuffing. Sign-in routes are limited per client address across
 * all e-mails (one client trying many accounts) and per e-mail across addresses (many clients
 * trying one account), with 429, a clear message and `Retry-After`. The per-e-mail window is
 * short, so the real owner, limited too while their account is under attack, waits minutes.
 */
describe("sign-in limits stop credential stuffing", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_ENABLED: "1" } });
    await t.auth.createAccount({
      email: "owner@example.com",
      password: "owner-password-1",
      fullName: "Owner",
      planName: "Free",
    });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const post = (url: string, form: Record<string, string>, remoteAddress: string) =>
    t.app.inject({
      method: "POST",
      url,
      remoteAddress,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(form).toString(),
    });
  const login = (email: string, remoteAddress: string, password = "guess") =>
    post("/api/auth/login", { email, password }, remoteAddress);
  const retryAfter = (response: { headers: Record<string, unknown> }) =>
    Number(response.headers["retry-after"]);

  it("limits one address trying 40 different e-mails (30 per 15 minutes), with Retry-After", async () => {
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof login>> | undefined;
    for (let i = 0; i < 40; i++) {
      const answer = await login(`stuffed-${i}@example.com`, "203.0.113.7");
      statuses.push(answer.statusCode);
      refused ??= answer.statusCode === 429 ? answer : undefined;
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
    expect(refused?.json()).toEqual({
      success: 0,
      message: expect.stringMatching(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/),
      code: "rate_limit",
    });
    expect(retryAfter(refused!)).toBeGreaterThan(14 * 60);
    expect(retryAfter(refused!)).toBeLessThanOrEqual(15 * 60);
    // Another client is not affected.
    expect((await login("stuffed-0@example.com", "203.0.113.8")).statusCode).toBe(200);
  });

  it("limits one e-mail tried from many addresses (10 per 5 minutes), the owner too, briefly", async () => {
    for (let i = 0; i < 10; i++) {
      expect((await login("owner@example.com", `198.51.100.${i + 1}`)).statusCode).toBe(200);
    }
    const attacker = await login("owner@example.com", "198.51.100.99");
    expect(attacker.statusCode).toBe(429);
    expect(attacker.json().message).toMatch(
      /^Too many sign-in attempts for this account\. Please wait \d+ minutes? and try again\.$/,
    );
    // The trade-off (README, Security): the owner, from a fresh address and with the right
    // password, waits out the same short window (at most 5 minutes), never 15.
    const owner = await login("owner@example.com", "192.0.2.50", "owner-password-1");
    expect(owner.statusCode).toBe(429);
    expect(retryAfter(owner)).toBeGreaterThan(0);
    expect(retryAfter(owner)).toBeLessThanOrEqual(5 * 60);
    // Other accounts from those addresses are not affected.
    expect((await login("someone@example.com", "198.51.100.1")).statusCode).toBe(200);
  });

  it("limits forgot-password per address across e-mails and per e-mail across addresses", async () => {
    const forgot = (email: string, address: string) => post("/api/auth/forgot-password", { email }, address);
    const perAddress: number[] = [];
    for (let i = 0; i < 11; i++)
      perAddress.push((await forgot(`f-${i}@example.com`, "203.0.113.20")).statusCode);
    expect(perAddress).toEqual([...Array(10).fill(200), 429]);
    const perEmail: number[] = [];
    for (let i = 0; i < 6; i++)
      perEmail.push((await forgot("mailbombed@example.com", `192.0.2.${i + 1}`)).statusCode);
    expect(perEmail).toEqual([...Array(5).fill(200), 429]);
    const refused = await forgot("mailbombed@example.com", "192.0.2.100");
    expect(refused.statusCode).toBe(429);
    expect(retryAfter(refused)).toBeGreaterThan(0);
  });

  it("limits device logins per address (20 per 15 minutes), with Retry-After", async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 21; i++) {
      last = await post("/api/auth/device-login", { id: `${"d".repeat(40)}${i}` }, "203.0.113.30");
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([...Array(20).fill(200), 429]);
    expect(retryAfter(last!)).toBeGreaterThan(14 * 60);
  });
});
