// Database access of OAuth sign-in: started flows (state) and linked provider identities.
import type { Db } from "../../db/index";
import type { User } from "../../db/schema";
import { accountIdByEmail } from "../../db/user-queries";

/** Database access of OAuth sign-in: started flows (state) and linked provider identities. */
export class OAuthRepo {
  constructor(private readonly db: Db) {}

  /** Removes the started flows that expired before `now` (epoch ms). */
  async deleteExpiredStates(now: number): Promise<void> {
    await this.db.deleteFrom("oauth_states").where("expires_at", "<", now).execute();
  }

  /** Stores a started flow: hashes of its state and binding, the PKCE verifier, its expiry. */
  async insertState(row: {
    state_hash: string;
    provider: string;
    code_verifier: string;
    expires_at: number;
    binding_hash: string;
  }): Promise<void> {
    await this.db.insertInto("oauth_states").values(row).execute();
  }

  /**
   * Consumes a started flow (deleted in the same statement, so a replay finds nothing).
   * @returns its verifier and binding hash, or undefined when unknown, expired or used.
   */
  takeState(
    stateHash: string,
    provider: string,
    now: number,
  ): Promise<{ code_verifier: string; binding_hash: string } | undefined> {
    return this.db
      .deleteFrom("oauth_states")
      .where("state_hash", "=", stateHash)
      .where("provider", "=", provider)
      .where("expires_at", ">", now)
      .returning(["code_verifier", "binding_hash"])
      .executeTakeFirst();
  }

  /** The user linked to a provider's subject id. */
  findLinkedUser(provider: string, subject: string): Promise<User | undefined> {
    return this.db
      .selectFrom("oauth_identities")
      .innerJoin("users", "users.id", "oauth_identities.user_id")
      .selectAll("users")
      .where("oauth_identities.provider", "=", provider)
      .where("oauth_identities.subject", "=", subject)
      .executeTakeFirst();
  }

  /** Whether any account uses this e-mail. */
  async emailTaken(email: string): Promise<boolean> {
    return (await accountIdByEmail(this.db, email)) !== undefined;
  }

  /** Links a provider's subject id to a user. */
  async link(provider: string, subject: string, userId: string, at: number): Promise<void> {
    await this.db
      .insertInto("oauth_identities")
      .values({ provider, subject, user_id: userId, created_at: at })
      .execute();
  }
}
