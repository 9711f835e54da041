// The tables of users and signing in: accounts, sessions, devices, password resets, OAuth, and the user's data exports.
import type { ColumnType, Generated } from "kysely";

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string | null;
  full_name: string;
  user_name: string;
  picture: string;
  plan_id: string;
  character_limit: number;
  voice_limit: number;
  photo_upload: number;
  image_generation: number;
  chat_limit: number;
  chat_count: number;
  /** The quota period chat_count counts: "YYYY-MM-DD" (day) or "YYYY-MM" (month), UTC. */
  chat_period: string;
  quota_period: string;
  /** Add-on messages left, used after the plan's limit. */
  extra_messages: number;
  uncensored: number;
  /** "user" or "admin" (the admin console). */
  role: Generated<string>;
  /** 1: cannot sign in, and every token is refused. */
  blocked: Generated<number>;
  stripe_customer_id: Generated<string>;
  stripe_subscription_id: Generated<string>;
  /** A cancelled subscription's plan lasts until this time (epoch ms), then Free; null otherwise. */
  plan_ends_at: Generated<number | null>;
  is_demo: number;
  /**
   * When the person confirmed being 18 or older (stored for every account); null until
   * then, and chat messages are refused. Epoch ms.
   */
  adult_confirmed_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** Demo users are removed with their data after this time; null for real accounts. */
  expires_at: number | null;
  created_at: number;
  /** The language the user chose for the app's screens ("" : the browser's). */
  ui_language: Generated<string>;
}

export interface AuthTokensTable {
  id: string;
  user_id: string;
  /** sha256 of the bearer token; the token itself is never stored. */
  token_hash: string;
  expires_at: number;
  /** Start of the session, epoch ms: the absolute lifetime (SESSION_MAX_AGE_DAYS) counts from it. */
  created_at: number;
  /** The device whose device login started this session; null for other sign-ins. */
  device_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface PasswordResetsTable {
  id: string;
  user_id: string;
  /** sha256 of the single-use code sent by e-mail. */
  code_hash: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

export interface DevicesTable {
  id: string;
  user_id: string;
  /** sha256 of the device secret carried in the user agent marker. */
  secret_hash: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

export interface OauthStatesTable {
  /** sha256 of the OAuth `state` value; single use. */
  state_hash: string;
  provider: string;
  /** PKCE code verifier (RFC 7636) for this authorization request. */
  code_verifier: string;
  expires_at: number;
  /**
   * sha256 of the binding value in the HttpOnly cookie of the browser that started the flow
   * (login CSRF); the callback must carry the same cookie.
   */
  binding_hash: string;
}

export interface OauthIdentitiesTable {
  provider: string;
  /** The provider's stable subject id (`sub`). */
  subject: string;
  user_id: string;
  created_at: number;
}

/** Take my data: one export of a user's data (a ZIP built by a background job). */
export interface DataExportsTable {
  id: string;
  user_id: string;
  /** "queued", "running", "ready", "failed" or "expired". */
  status: string;
  /** The ZIP's key in the content area; "" until ready. */
  file_key: Generated<string>;
  size_bytes: Generated<number>;
  error: Generated<string>;
  created_at: number;
  ready_at: number | null;
  /** Epoch ms after which the ZIP is removed and the link refused (24 h after ready). */
  expires_at: number | null;
}

/** The tables above, as the `Database` interface of server/db/schema.ts includes them. */
export interface UsersTables {
  users: UsersTable;
  auth_tokens: AuthTokensTable;
  password_resets: PasswordResetsTable;
  devices: DevicesTable;
  oauth_states: OauthStatesTable;
  oauth_identities: OauthIdentitiesTable;
  data_exports: DataExportsTable;
}
