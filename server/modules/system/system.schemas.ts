// The documentation and answers of the system routes (health, readiness, metrics, the version file, the chat screen's capabilities) for the OpenAPI document.
import { z } from "zod";
import {
  AppMeta,
  ChatCapabilities,
  envelopeOf,
  FailBody,
  HealthStatus,
  ReadyReply,
} from "../../../common/api";
import { answers } from "../../http/route-schemas";

/** docs/api.md's section of the system routes. */
const SYSTEM = ["System, health and metrics"];

/** GET /api/health (docs/api.md "System, health and metrics"). */
export const HealthDoc = {
  tags: SYSTEM,
  description: "`data: { version, database, llm }`: the process is alive",
  "x-from": "ours",
  response: answers(envelopeOf(HealthStatus)),
};
/** GET /api/ready. */
export const ReadyDoc = {
  tags: SYSTEM,
  description: "`data: { shuttingDown, checks }`; 503 when a check fails or the process is shutting down",
  "x-from": "ours",
  // The same envelope at both statuses; the 503 has success 0 and no `code` (not the failure envelope).
  response: { 200: ReadyReply, 503: ReadyReply },
};
/** GET /metrics: not public, see `mayReadMetrics`. */
export const MetricsDoc = {
  tags: SYSTEM,
  description: "Prometheus text; 403 otherwise; absent with `METRICS_ENABLED=0`",
  "x-from": "ours",
  "x-who": "loopback and private addresses, or `Authorization: Bearer <METRICS_TOKEN>`",
  // The text is sent as it is (a string is never serialized); only the 403 is JSON.
  response: {
    200: {
      description: "The Prometheus text exposition format (`text/plain; version=0.0.4; charset=utf-8`).",
      content: { "text/plain": { schema: z.string() } },
    },
    403: FailBody,
  },
};
/** GET /meta.json, product.md §7 (cache busting). */
export const MetaDoc = {
  tags: SYSTEM,
  description: "`{ version }` (no envelope, `no-store`)",
  "x-from": "§7",
  response: { 200: AppMeta },
};
/** GET /api/chat/capabilities (docs/api.md "Chat"). */
export const CapabilitiesDoc = {
  tags: ["Chat"],
  description:
    "`data`: chat, voiceReplies, speechInput, imageRequests, photoUpload (`{ enabled, reason }` each), `modelDownload?`",
  "x-from": "ours",
  response: answers(envelopeOf(ChatCapabilities)),
};
