// The response envelope of every call (product.md §3), the error code schema and the failure envelope, as zod schemas.
import { z } from "zod";
import { ERROR_STATUS, type ErrorCode as ErrorCodeKey } from "../errors";

/**
 * The API's wire shapes are zod schemas (zod 4), each the single source of its TypeScript type
 * (`z.infer`): the server's presenters are typed against the types, the routes may declare the
 * schemas as `schema.response` (server/http/route-schemas.ts), and the OpenAPI document names each
 * schema by its `meta` id. The SPA imports only the types (`import type`), so it bundles no zod.
 */

/**
 * A stable error code of the API (common/errors.ts): a key of `ERROR_STATUS`. The list is read
 * from `ERROR_STATUS`, so a code added there is accepted here.
 */
export const ErrorCode = z
  .enum(Object.keys(ERROR_STATUS) as [ErrorCodeKey, ...ErrorCodeKey[]])
  .meta({ id: "ErrorCode", description: "A stable error code of the API (common/errors.ts)." });
export type ErrorCode = z.infer<typeof ErrorCode>;

/**
 * product.md §3: the response envelope of every call. `success` 1 means ok. Failures also carry `code`
 * (common/errors.ts), the stable name the SPA decides on.
 */
export const Envelope = z
  .object({
    success: z.literal([0, 1]).describe("1 when the call succeeded, 0 when it was refused."),
    message: z.string(),
    code: ErrorCode.optional(),
    page: z.string().optional(),
    data: z.unknown().optional(),
  })
  .meta({
    id: "Envelope",
    description: "The response envelope of every call; failures also carry `code`.",
  });

/**
 * The envelope with its `data` typed (`data` absent when the call has none to give). The schema
 * of one is `envelopeOf(dataSchema)`.
 */
export type Envelope<T = unknown> = Omit<z.infer<typeof Envelope>, "data"> & { data?: T };

/** The envelope's schema with `data` of the given schema (optional, as in `Envelope<T>`). */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return Envelope.extend({ data: data.optional() });
}

/** The failure envelope every refusal answers (and a reply stream's `error` event carries). */
export const FailBody = z
  .object({
    success: z.literal(0),
    message: z.string(),
    code: ErrorCode,
    page: z.string().optional(),
  })
  .meta({ id: "FailBody", description: "The failure envelope every refusal answers." });
export type FailBody = z.infer<typeof FailBody>;
