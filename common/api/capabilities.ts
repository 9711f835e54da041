// The chat screen's capabilities (GET /chat/capabilities, ours): each control on, or off with the reason, and the model download's progress.
import { z } from "zod";

/** Ours: one capability of the chat screen; off comes with the reason to show. */
export const Capability = z
  .object({
    enabled: z.boolean(),
    reason: z.string().describe('The reason to show while it is off ("" when on).'),
  })
  .meta({ id: "Capability", description: "One capability of the chat screen; off comes with the reason." });
export type Capability = z.infer<typeof Capability>;

/**
 * Ours: how far the download of the default language model has come, as GET
 * /chat/capabilities answers it in `data.modelDownload` while the chat is off because of it.
 */
export const ModelDownloadProgress = z
  .object({
    /** Bytes written so far. */
    doneBytes: z.number().describe("Bytes written so far."),
    /** The file's size in bytes; null while the server does not know it. */
    totalBytes: z
      .number()
      .nullable()
      .describe("The file's size in bytes; null while the server does not know it."),
    /** Whole percent 0 to 100 (rounded down); null while the size is unknown. */
    percent: z
      .number()
      .nullable()
      .describe("Whole percent 0 to 100 (rounded down); null while the size is unknown."),
  })
  .meta({
    id: "ModelDownloadProgress",
    description: "How far the download of the default language model has come.",
  });
export type ModelDownloadProgress = z.infer<typeof ModelDownloadProgress>;

/**
 * Ours: `data` of GET /chat/capabilities, what this server and this plan allow on the chat
 * screen; each control off comes with the reason to show.
 */
export const ChatCapabilities = z
  .object({
    chat: Capability,
    voiceReplies: Capability,
    /** The server's transcription path; the SPA adds the browser's own speech recognition. */
    speechInput: Capability.describe(
      "The server's transcription path; the SPA adds the browser's own speech recognition.",
    ),
    imageRequests: Capability,
    photoUpload: Capability,
    /** Only while the chat is off because the default model downloads: how far it has come. */
    modelDownload: ModelDownloadProgress.optional().describe(
      "Only while the chat is off because the default model downloads: how far it has come.",
    ),
  })
  .meta({
    id: "ChatCapabilities",
    description: "What this server and this plan allow on the chat screen.",
  });
export type ChatCapabilities = z.infer<typeof ChatCapabilities>;
