// Reply ownership in the database: each server process's renewed lease, so a dead process's pending replies get settled.
import { randomUUID } from "node:crypto";
import type { Db } from "../../db/index";

/** How long a process's lease lives unless renewed, milliseconds. */
export const INSTANCE_LEASE_MS = 10_000;

/** How often a running process renews its lease, milliseconds (three tries per lease). */
export const INSTANCE_RENEW_MS = 3_000;

/** How long a lapsed lease row is kept before it is deleted, milliseconds (nothing reads it then). */
const LAPSED_KEPT_MS = 3_600_000;

/**
 * Reply ownership, kept in the database so it outlives Redis losing its data: each server process
 * holds one lease (a row of instance_leases) that it renews every INSTANCE_RENEW_MS while it runs,
 * and records its id as the `owner` of the entries it stores. A pending entry whose owner's lease
 * lapsed (the process was killed, froze or lost the database for INSTANCE_LEASE_MS) belongs to
 * no one, started or not, and is settled by whichever process sweeps next
 * (stalled-replies.ts). One write per process every few seconds, whatever the number of replies.
 */
export class InstanceLease {
  /** This process's lease id (the `owner` of its entries). */
  readonly id = randomUUID();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
    /** Logs a failed renewal (the next one tries again). */
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /**
   * Takes the lease, then renews it every INSTANCE_RENEW_MS (idempotent).
   * @throws the database's error when the first write fails.
   */
  async start(): Promise<void> {
    if (this.timer) return;
    await this.renew();
    this.timer = setInterval(() => this.renew().catch(this.onError), INSTANCE_RENEW_MS);
    this.timer.unref();
  }

  /** Extends the lease to INSTANCE_LEASE_MS from now (an upsert). */
  async renew(): Promise<void> {
    const expires_at = this.now() + INSTANCE_LEASE_MS;
    await this.db
      .insertInto("instance_leases")
      .values({ id: this.id, expires_at })
      .onConflict((conflict) => conflict.column("id").doUpdateSet({ expires_at }))
      .execute();
  }

  /**
   * Stops renewing and gives the lease up (after the process's replies have ended): whatever it
   * left pending can be settled at once. A failed delete only delays that until the lease lapses.
   */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.db.deleteFrom("instance_leases").where("id", "=", this.id).execute().catch(this.onError);
  }

  /** Deletes the rows of leases lapsed for over an hour (a process's row is one row; this keeps the table small). */
  async removeLapsed(): Promise<void> {
    await this.db
      .deleteFrom("instance_leases")
      .where("expires_at", "<", this.now() - LAPSED_KEPT_MS)
      .execute();
  }
}
