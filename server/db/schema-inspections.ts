// The table of the prompt inspector: what each reply's prompt was made of.

/** What one reply version's prompt was made of (common/prompt-inspection.ts `PromptInspection`). */
export interface PromptInspectionsTable {
  /** The history entry whose reply it is (deleted with it). */
  entry_id: string;
  /** The reply's swipe (chat_reply_swipes.position); 0 for an entry with none. */
  swipe_index: number;
  /** The inspection as JSON text, at most INSPECTION_MAX_CHARS (inspections.repo.ts). */
  inspection: string;
  /** Epoch ms when the reply was stored. */
  created_at: number;
}

/** The tables above, as the `Database` interface of server/db/schema.ts includes them. */
export interface InspectionTables {
  prompt_inspections: PromptInspectionsTable;
}
