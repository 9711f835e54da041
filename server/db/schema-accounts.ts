// The tables of self-hosted accounts: the owner's set-up tokens, invitations and sign-up codes.

/** A one-time owner set-up token (product.md §2 "Owner set-up"): only its SHA-256 hash is kept. */
export interface SetupTokensTable {
  token_hash: string;
  expires_at: number;
  created_at: number;
}

/**
 * An invitation to sign up, made by an admin: one use, an expiry, optionally locked to one
 * e-mail. Its link's token is `<id>.<HMAC of the id>` (server/modules/members/invitations.ts),
 * so no secret is stored and the console can show the link again.
 */
export interface InvitationsTable {
  id: string;
  /** The only e-mail that may use it (lower case); '' for any. */
  email: string;
  expires_at: number;
  created_by: string;
  created_at: number;
  used_at: number | null;
  /** The e-mail that signed up with it. */
  used_by: string | null;
  revoked_at: number | null;
}

/** A pending sign-up: the hash of the 6-digit code mailed to the address, and the tries used. */
export interface SignupCodesTable {
  email: string;
  code_hash: string;
  expires_at: number;
  /** Wrong codes tried so far (at most 5 tries per code). */
  tries: number;
  created_at: number;
}

/** The tables above, as the `Database` interface of server/db/schema.ts includes them. */
export interface AccountsTables {
  setup_tokens: SetupTokensTable;
  invitations: InvitationsTable;
  signup_codes: SignupCodesTable;
}
