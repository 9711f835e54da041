// The prompt inspector's types (GET /api/chat/prompt): what a reply's prompt was made of; the zod schemas are in common/api/inspection.ts.
export type {
  LoreFired,
  PromptInspection,
  PromptInspectionReply,
  PromptPart,
  PromptPartKind,
  RecalledMessage,
  RecallInspection,
  RecallReason,
} from "./api/inspection";
