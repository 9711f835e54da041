// Request shapes of the OAuth sign-in routes (the start and the provider's callback), checked with zod, and their documentation.
import { z } from "zod";
import { msg, zodText } from "../../i18n/messages";

/** The platform named in the path (`:platform`); the service refuses one it does not offer. */
export const PlatformParams = z.object({ platform: z.string() });

/** POST /api/:platform/callback: the provider's code, the state of the started sign-in and its `iss`. */
export const CallbackBody = z.object({
  code: z
    .string()
    .trim()
    .min(1, zodText(msg("oauth.signCodeMissing")))
    .max(2000, zodText(msg("oauth.signCodeNotValid"))),
  state: z
    .string()
    .trim()
    .min(1, zodText(msg("oauth.signStateMissing")))
    .max(200, zodText(msg("oauth.signStateNotValid"))),
  /** The issuer the provider named in its answer (RFC 9207), forwarded when the provider sent one. */
  iss: z
    .string()
    .trim()
    .max(2000, zodText(msg("oauth.signIssuerNotValid")))
    .optional()
    .describe("when the provider sent one"),
});

/**
 * The documentation of an OAuth route in its schema (the OpenAPI document): what it answers
 * (docs/api.md's Answers cell), where it comes from (From) and, when not the default, who may call it.
 */
export const oauthDoc = (description: string, from: string, who?: string) => ({
  tags: ["Auth and accounts"],
  description,
  "x-from": from,
  ...(who ? { "x-who": who } : {}),
});
