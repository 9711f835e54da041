import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";
import type { AccountsTables } from "./schema-accounts";

/**
 * Database tables (spec section 3 entities the server keeps). Times are epoch milliseconds
 * (bigint), flags are integers 0/1, ids exposed to clients are UUID strings.
 */
export interface PlansTable {
  id: string;
  name: string;
  price_cents: number;
  description_html: string;
  url: string;
  image: string;
  /** Character creation limit (product.md §3: cl). */
  character_limit: number;
  /** Voice limit (product.md §3: vl, read but unused). */
  voice_limit: number;
  /** Photo upload allowed (product.md §3: pl). */
  photo_upload: number;
  /** Appearance and image generation allowed (product.md §3: il). */
  image_generation: number;
  /** Chat messages per quota period (product.md §1: free tier 15 a day). */
  message_limit: number;
  /** "day" or "month" (UTC calendar). */
  quota_period: Generated<string>;
  /** Uncensored replies allowed (a plan attribute; Premium Plus). */
  uncensored: Generated<number>;
  sort_order: number;
  /** Stripe recurring Price id (price_...) when the plan is sold through Checkout; '' otherwise. */
  stripe_price_id: Generated<string>;
}

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

export interface LanguagesTable {
  id: string;
  name: string;
  /** BCP 47 code, e.g. "en". */
  code: string;
  sort_order: number;
}

export interface VoicesTable {
  id: string;
  name: string;
  sex: string;
  language_code: string;
  /** Text-to-speech provider and its own voice id that this entry maps to. */
  provider: string;
  provider_voice: string;
}

/**
 * The profile of a character (product.md §2 "Character form"): what a preset holds and what choosing it
 * copies into the user's own character. `photo` is a file name under /content/characters/ (a
 * preset's under /content/predefined-characters/).
 */
export interface CharacterProfile {
  name: string;
  sex: string;
  voice: string;
  language_id: string;
  description: string;
  greeting: string;
  appearance: string;
  photo: string;
}

export interface PresetCharactersTable extends CharacterProfile {
  id: string;
  sort_order: number;
}

export interface CharactersTable extends CharacterProfile {
  id: string;
  user_id: string;
  preset_id: string | null;
  created_at: number;
  /** The Character Card `data` (JSON) the character was imported from; '' if none. */
  card: Generated<string>;
  /** The character's lorebook (`character_book` JSON, lorebook.ts); null if none. */
  lorebook: string | null;
  /** The card's alternate greetings (JSON array of strings), swipes of the greeting. */
  alternate_greetings: Generated<string>;
}

export interface ChatGroupsTable {
  id: string;
  user_id: string;
  created_at: number;
}

export interface ChatGroupMembersTable {
  group_id: string;
  character_id: string;
  position: number;
  /** When the character joined the group, epoch ms (it sees only what came after). */
  joined_at: Generated<number>;
}

export interface ChatSessionsTable {
  id: string;
  user_id: string;
  /** The chat's key as clients know it: a character id or a group id. */
  chat_key: string;
  is_group: number;
  /** Rolling summary of older messages (memory); empty until written. */
  summary: string;
  /** The summary covers history entries up to this order key (seq); 0 when there is none. */
  summary_until_seq: Generated<number>;
  /**
   * Long-term facts have been extracted from the user's entries up to this order key (seq); 0
   * when none were (facts are extracted in batches, memory.service.ts).
   */
  facts_until_seq: Generated<number>;
  greeted: number;
  created_at: number;
  updated_at: number;
}

export interface ChatHistoryTable {
  id: string;
  session_id: string;
  character_id: string;
  message: string;
  message_image: string;
  send_time: number;
  reply_message: string;
  reply_image: string;
  reply_audio_url: string;
  reply_time: number | null;
  image_loading: number;
  /** pending: waiting for the model; replied; failed: the model gave no reply. */
  status: string;
  error: string;
  /** Order within the session: epoch microseconds, strictly increasing per process. */
  seq: number;
  /** The client's id of the send ('' for entries the server made, e.g. greetings). */
  client_message_id: string;
  /** How often the reply was continued (at most CONTINUE_MAX_PER_REPLY times). */
  continue_count: Generated<number>;
  /**
   * Swipes: which of the entry's chat_reply_alternatives reply_message is (0-based); 0
   * when it has none.
   */
  alternative_index: Generated<number>;
  /**
   * The server process that stored the entry (its instance_leases id); "" for entries stored
   * before ownership was recorded, or by a background job. A pending entry whose owner's lease
   * lapsed is settled by any process (server/modules/chat/stalled-replies.ts).
   */
  owner: Generated<string>;
}

/**
 * One server process's lease: renewed every few seconds while the process runs, deleted when it
 * stops (server/modules/chat/instance-lease.ts).
 */
export interface InstanceLeasesTable {
  id: string;
  /** Epoch milliseconds after which the process counts as gone. */
  expires_at: number;
}

/** Swipes: one reply an entry has had (regenerated, or a card's alternate greeting). */
export interface ChatReplyAlternativesTable {
  id: string;
  entry_id: string;
  /** 0-based, in the order written. */
  position: number;
  reply_message: string;
  /** Its spoken audio (/content/voice/<hash>.mp3), "" until spoken. */
  reply_audio_url: Generated<string>;
  created_at: number;
}

export interface ContactMessagesTable {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  created_at: number;
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

export interface FreeSubscriptionsTable {
  id: string;
  email: string;
  /** The code the person comments on the video. */
  code: string;
  /** pending, verified, expired */
  status: string;
  expires_at: number;
  next_check_at: number;
  /** A worker holds the row until this time (durable job claim). */
  locked_until: number;
  checks: number;
  last_error: string;
  user_id: string | null;
  created_at: number;
}

/** A long-term fact about the user, remembered by one character (memory). */
export interface MemoriesTable {
  id: string;
  user_id: string;
  character_id: string;
  fact: string;
  created_at: number;
  /** The chat session it was drawn from ("" for facts older than that). */
  session_id: Generated<string>;
  /** The order key (seq) of the newest message it was drawn from (0: unknown). */
  source_seq: Generated<number>;
}

/** A payment provider's webhook event, stored once (idempotency by the provider's event id). */
export interface PaymentEventsTable {
  id: string;
  provider: string;
  type: string;
  user_id: string | null;
  /** What the event did: "applied", "ignored" or a short reason. */
  outcome: string;
  /** The event as received (JSON). */
  payload: string;
  created_at: number;
}

/** One admin action (an audit log of every admin action). */
export interface AdminAuditTable {
  id: string;
  admin_id: string;
  admin_email: string;
  /** e.g. "plan.update", "user.block". */
  action: string;
  /** The id of what was changed. */
  target: string;
  /** JSON of the fields sent. */
  details: string;
  created_at: number;
}

/** A durable image generation job: resumed at start, ended by the timeout. */
export interface ImageJobsTable {
  id: string;
  user_id: string;
  /** The history entry whose reply image this makes (chatHistoryImageLoading 1 while it runs). */
  entry_id: string;
  /** The chat's character or group id: the image goes to content/{chat_key}/. */
  chat_key: string;
  prompt: string;
  negative_prompt: string;
  /** Pixels. */
  width: number;
  height: number;
  seed: number;
  /** queued, running, done, failed */
  status: string;
  /**
   * The quota reservation that paid for it, "bucket:period" ("plan:2026-11-23", "extra:2026-11";
   * older rows "plan" or "extra"); given back to that period on failure.
   */
  quota_bucket: string;
  attempts: number;
  error: string;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

/** A user's opt-in to check-ins of one character ("Let {name} write first"). */
export interface CheckinSettingsTable {
  user_id: string;
  character_id: string;
  /** 1 while the user lets the character write first. */
  enabled: number;
  /** The user's IANA time zone as their browser sent it (waking hours 09:00-21:00 there). */
  time_zone: string;
  /** Check-ins the user has not seen yet (the characters list's badge); 0 once the chat is opened. */
  unread: Generated<number>;
  /** Epoch ms before which the job skips this chat (outside waking hours: the next 09:00). */
  next_check_at: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** One check-in a character sent (its history entry), once per chat and quiet period. */
export interface CheckinsTable {
  id: string;
  session_id: string;
  entry_id: string;
  /** The entry's order key (seq): any later entry of the chat answers the check-in. */
  entry_seq: number;
  /** The time (epoch ms) of the chat's last message before the check-in: the quiet period it ended. */
  quiet_since: number;
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

/** A model connection of the admin console (product.md §9): an OpenAI-wire endpoint or a GGUF file. */
export interface ModelConnectionsTable {
  id: string;
  name: string;
  /** "openai" or "embedded". */
  kind: string;
  /** "ollama", "llamacpp", "lmstudio", "vllm", "openrouter", "openai" or "custom". */
  preset: string;
  /** The endpoint's base URL; "" for embedded. */
  base_url: Generated<string>;
  /** The model's id at the endpoint, or the GGUF file's absolute path (embedded). */
  model: string;
  /** The API key, AES-256-GCM encrypted (server/modules/models/models.keys.ts); "" when none. */
  api_key_encrypted: Generated<string>;
  max_tokens: number;
  temperature: number;
  context_size: number;
  created_at: number;
  updated_at: number;
}

/** Which connection answers where: scope "default" (target ""), "plan" or "character" (a preset's id). */
export interface ModelAssignmentsTable {
  scope: string;
  target_id: string;
  connection_id: string;
}

/** One row (id 1): `version` is bumped on every change of the connections or assignments. */
export interface ModelSettingsTable {
  id: number;
  version: number;
  /** 1 once the environment's model was stored as the first connection (or nothing was to store). */
  seeded: number;
}

export interface Database extends AccountsTables {
  image_jobs: ImageJobsTable;
  payment_events: PaymentEventsTable;
  admin_audit: AdminAuditTable;
  memories: MemoriesTable;
  password_resets: PasswordResetsTable;
  devices: DevicesTable;
  oauth_states: OauthStatesTable;
  oauth_identities: OauthIdentitiesTable;
  free_subscriptions: FreeSubscriptionsTable;
  plans: PlansTable;
  users: UsersTable;
  auth_tokens: AuthTokensTable;
  languages: LanguagesTable;
  voices: VoicesTable;
  preset_characters: PresetCharactersTable;
  characters: CharactersTable;
  chat_groups: ChatGroupsTable;
  chat_group_members: ChatGroupMembersTable;
  chat_sessions: ChatSessionsTable;
  chat_history: ChatHistoryTable;
  contact_messages: ContactMessagesTable;
  checkin_settings: CheckinSettingsTable;
  checkins: CheckinsTable;
  chat_reply_alternatives: ChatReplyAlternativesTable;
  data_exports: DataExportsTable;
  instance_leases: InstanceLeasesTable;
  model_connections: ModelConnectionsTable;
  model_assignments: ModelAssignmentsTable;
  model_settings: ModelSettingsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type Character = Selectable<CharactersTable>;
export type PresetCharacterRow = Selectable<PresetCharactersTable>;
export type ChatHistoryRow = Selectable<ChatHistoryTable>;
export type ChatSession = Selectable<ChatSessionsTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Device = Selectable<DevicesTable>;
export type Plan = Selectable<PlansTable>;
export type ImageJob = Selectable<ImageJobsTable>;
