import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { User } from "../../db/schema";
import { AppError } from "../../errors";
import { demoLogin, describeEachDatabase } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";
import { QuotaRepo } from "./quota.repo";
import {
  decodeReservation,
  encodeReservation,
  QuotaService,
  quotaLimitError,
  quotaPeriodKey,
} from "./quota.service";

const at = (iso: string) => Date.parse(iso);

describe("quota periods, stored reservations and the limit message", () => {
  it("a period is the UTC day for daily plans and the UTC month for monthly ones", () => {
    expect(quotaPeriodKey("day", at("2026-11-23T23:59:59.999Z"))).toBe("2026-11-23");
    expect(quotaPeriodKey("day", at("2026-11-24T00:00:00.000Z"))).toBe("2026-11-24");
    expect(quotaPeriodKey("month", at("2026-11-30T23:59:59Z"))).toBe("2026-11");
  });

  it("a reservation is stored with its period; older rows without one still read", () => {
    const stored = encodeReservation({ bucket: "plan", period: "2026-11-23" });
    expect(stored).toBe("plan:2026-11-23");
    expect(decodeReservation(stored)).toEqual({ bucket: "plan", period: "2026-11-23" });
    expect(decodeReservation("extra:2026-11")).toEqual({ bucket: "extra", period: "2026-11" });
    expect(decodeReservation("plan")).toEqual({ bucket: "plan", period: "" });
    expect(decodeReservation("extra")).toEqual({ bucket: "extra", period: "" });
    for (const bad of ["", "gift", "plan:yesterday", "plan:2026-11-23:x"]) {
      expect(decodeReservation(bad)).toBeUndefined();
    }
  });

  it("the limit message is built from the add-on constants, 429 quota_reached to /pricing", () => {
    const monthly = quotaLimitError({ quota_period: "month", chat_limit: 1000 } as User);
    expect(monthly).toBeInstanceOf(AppError);
    expect(monthly).toMatchObject({
      status: 429,
      code: "quota_reached",
      page: "/pricing",
      message:
        "You have reached your limit of 1000 messages for this month. Add 100 messages for $1.99 or upgrade your plan.",
    });
    expect(quotaLimitError({ quota_period: "day", chat_limit: 15 } as User).message).toBe(
      "You have reached your limit of 15 messages for today. Upgrade your plan to chat more.",
    );
  });
});

describeEachDatabase("quota reservations and refunds across a period change", (dialect) => {
  let t: TestApp;
  let quota: QuotaService;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    quota = new QuotaService(new QuotaRepo(t.db.db));
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const user = async (userId: string) =>
    t.db.db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();

  it("a plan message reserved at 23:59:59 and refunded after midnight leaves the new day's count alone", async () => {
    const { userId } = await demoLogin(t.app);
    const before = await quota.chargeMessage(await user(userId), at("2026-11-23T23:59:59Z"));
    expect(before).toEqual({ bucket: "plan", period: "2026-11-23" });
    const after = await quota.chargeMessage(await user(userId), at("2026-11-24T00:00:01Z"));
    expect(after).toEqual({ bucket: "plan", period: "2026-11-24" });
    expect(await user(userId)).toMatchObject({ chat_period: "2026-11-24", chat_count: 1 });
    await quota.refundMessage(userId, before);
    expect(await user(userId)).toMatchObject({ chat_period: "2026-11-24", chat_count: 1 });
    await quota.refundMessage(userId, after);
    expect(await user(userId)).toMatchObject({ chat_period: "2026-11-24", chat_count: 0 });
  });

  it("a refund in the same period gives the message back; a count never goes below zero", async () => {
    const { userId } = await demoLogin(t.app);
    const charge = await quota.chargeMessage(await user(userId), at("2026-11-23T10:00:00Z"));
    await quota.refundMessage(userId, charge);
    await quota.refundMessage(userId, charge);
    expect(await user(userId)).toMatchObject({ chat_period: "2026-11-23", chat_count: 0 });
  });

  it("an add-on message is always given back, even after the period changed", async () => {
    const { userId } = await demoLogin(t.app);
    await t.db.db
      .updateTable("users")
      .set({ chat_period: "2026-11-23", chat_count: 15, extra_messages: 1 })
      .where("id", "=", userId)
      .execute();
    const charge = await quota.chargeMessage(await user(userId), at("2026-11-23T23:59:59Z"));
    expect(charge).toEqual({ bucket: "extra", period: "2026-11-23" });
    await expect(quota.chargeMessage(await user(userId), at("2026-11-23T23:59:59Z"))).rejects.toMatchObject({
      status: 429,
      code: "quota_reached",
    });
    await quota.chargeMessage(await user(userId), at("2026-11-24T00:00:01Z"));
    await quota.refundMessage(userId, charge);
    expect(await user(userId)).toMatchObject({ chat_period: "2026-11-24", chat_count: 1, extra_messages: 1 });
  });

  it("a reservation stored before periods were recorded is refunded to the current count", async () => {
    const { userId } = await demoLogin(t.app);
    await quota.chargeMessage(await user(userId), at("2026-11-23T10:00:00Z"));
    await quota.refundMessage(userId, decodeReservation("plan")!);
    expect((await user(userId)).chat_count).toBe(0);
  });
});
