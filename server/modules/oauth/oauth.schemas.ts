// Request shapes of the OAuth sign-in routes (the provider's callback), checked with zod.
import { z } from "zod";

/** POST /api/:platform/callback: the provider's code, the state of the started sign-in and its `iss`. */
export const CallbackBody = z.object({
  code: z.string().trim().min(1, "The sign-in code is missing.").max(2000, "The sign-in code is not valid."),
  state: z
    .string()
    .trim()
    .min(1, "The sign-in state is missing.")
    .max(200, "The sign-in state is not valid."),
  /** The issuer the provider named in its answer (RFC 9207), forwarded when the provider sent one. */
  iss: z.string().trim().max(2000, "The sign-in issuer is not valid.").optional(),
});
