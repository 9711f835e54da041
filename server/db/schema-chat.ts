// The tables of chats: groups, sessions, history and its swipes, what memory keeps, pictures being made, check-ins, and the server processes' leases.
import type { Generated } from "kysely";

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
  /** Recall: 1 when a reply's prompt may be given earlier messages of this chat (the default), 0 when off. */
  recall: Generated<number>;
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
   * Swipes: which of the entry's chat_reply_swipes reply_message is (0-based); 0
   * when it has none.
   */
  swipe_index: Generated<number>;
  /**
   * The server process that stored the entry (its instance_leases id); "" for entries stored
   * before ownership was recorded, or by a background job. A pending entry whose owner's lease
   * lapsed is settled by any process (server/modules/chat/stalled-replies.ts).
   */
  owner: Generated<string>;
}

/** Swipes: one reply an entry has had (regenerated, or a card's alternate greeting). */
export interface ChatReplySwipesTable {
  id: string;
  entry_id: string;
  /** 0-based, in the order written. */
  position: number;
  reply_message: string;
  /** Its spoken audio (/content/voice/<hash>.mp3), "" until spoken. */
  reply_audio_url: Generated<string>;
  created_at: number;
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

/**
 * The embedding of one side of a history entry (recall by meaning, migration 0036): dropped with
 * its entry (foreign key) and when that side's text changes (a trigger).
 */
export interface MessageVectorsTable {
  entry_id: string;
  /** 0 the user's message, 1 the reply shown. */
  side: number;
  /** The Embedder's id ("gguf:<file>", "openai:<model>"): vectors of other models are not compared. */
  model: string;
  /** Unit-length float32 values, little-endian (vectorToBuffer), 4 bytes a dimension. */
  vector: Uint8Array;
}

/** The tables above, as the `Database` interface of server/db/schema.ts includes them. */
export interface ChatTables {
  chat_groups: ChatGroupsTable;
  chat_group_members: ChatGroupMembersTable;
  chat_sessions: ChatSessionsTable;
  chat_history: ChatHistoryTable;
  chat_reply_swipes: ChatReplySwipesTable;
  instance_leases: InstanceLeasesTable;
  memories: MemoriesTable;
  image_jobs: ImageJobsTable;
  checkin_settings: CheckinSettingsTable;
  checkins: CheckinsTable;
  message_vectors: MessageVectorsTable;
}
