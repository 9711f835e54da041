// Plans and the one way a user's plan changes: copying the plan's grants into the user row; the free plan everyone falls back to.
import type { Kysely } from "kysely";
import type { Db } from "../../db/index";
import type { Database, Plan, User } from "../../db/schema";
import { quotaPeriodKey } from "../quota/quota.service";

/** The plan every account falls back to (product.md §1: the free tier). */
export const FREE_PLAN_NAME = "Free";

/** What a plan grants, in the columns of the user row that the session and the quota read. */
export function grantsOf(plan: Plan) {
  return {
    character_limit: plan.character_limit,
    voice_limit: plan.voice_limit,
    photo_upload: plan.photo_upload,
    image_generation: plan.image_generation,
    chat_limit: plan.message_limit,
    quota_period: plan.quota_period,
    uncensored: plan.uncensored,
  };
}

/**
 * Plans and the one way a user's plan changes. The user row holds a copy of its plan's
 * grants (cl, vl, pl, il, chat limit, quota period, uncensored) because the quota reservation and
 * the session read them on every request; every change of a user's plan and every edit of a
 * plan rewrites those copies in the same statement, so what a user gets always follows the plan
 * at once. Only an admin's per-user limits differ from the plan, until the next plan change.
 */
export class PlansRepo {
  constructor(private readonly db: Db) {}

  list(): Promise<Plan[]> {
    return this.db.selectFrom("plans").selectAll().orderBy("sort_order").execute();
  }

  findById(id: string, db: Kysely<Database> = this.db): Promise<Plan | undefined> {
    return db.selectFrom("plans").selectAll().where("id", "=", id).executeTakeFirst();
  }

  findByName(name: string, db: Kysely<Database> = this.db): Promise<Plan | undefined> {
    return db.selectFrom("plans").selectAll().where("name", "=", name).executeTakeFirst();
  }

  /** The plan sold with this Stripe recurring price id. */
  findByStripePrice(priceId: string, db: Kysely<Database> = this.db): Promise<Plan | undefined> {
    if (!priceId) return Promise.resolve(undefined);
    return db.selectFrom("plans").selectAll().where("stripe_price_id", "=", priceId).executeTakeFirst();
  }

  /**
   * Puts a user on a plan: the plan id and its grants at once. When the quota period changes
   * (day ↔ month) the count starts again in the new period.
   * @param extra further user columns to set in the same statement (subscription ids, end time).
   */
  async setUserPlan(
    userId: string,
    plan: Plan,
    now: number,
    extra: Partial<
      Pick<User, "stripe_customer_id" | "stripe_subscription_id" | "plan_ends_at" | "chat_count">
    > = {},
    db: Kysely<Database> = this.db,
  ): Promise<void> {
    const current = await db
      .selectFrom("users")
      .select(["quota_period"])
      .where("id", "=", userId)
      .executeTakeFirst();
    const periodChanged = current !== undefined && current.quota_period !== plan.quota_period;
    await db
      .updateTable("users")
      .set({
        plan_id: plan.id,
        ...grantsOf(plan),
        ...(periodChanged ? { chat_count: 0, chat_period: quotaPeriodKey(plan.quota_period, now) } : {}),
        ...extra,
      })
      .where("id", "=", userId)
      .execute();
  }

  /** Rewrites the grants of every user on the plan from the plan (after an admin edit). */
  async syncUsersOfPlan(plan: Plan, db: Kysely<Database> = this.db): Promise<number> {
    const result = await db
      .updateTable("users")
      .set(grantsOf(plan))
      .where("plan_id", "=", plan.id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
