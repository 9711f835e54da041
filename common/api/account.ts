// The signed-in user's wire shapes (product.md §3): the session user and token, the sign-in answer, the profile, devices, the OAuth sign-ins offered and the data export.
import { z } from "zod";
import { Envelope, envelopeOf } from "./envelope";

/** A flag as the spec sends it: the string '0' or '1'. */
const flag = z.enum(["0", "1"]);

/** product.md §3: the session user stored under the `user` key. Flags are the strings '0' or '1'. */
export const SessionUser = z
  .object({
    id: z.string(),
    cl: z.number().describe("The character creation limit."),
    vl: z.number().describe("The voice limit (read but unused)."),
    pl: flag.describe("The photo upload flag, '1' allows."),
    il: flag.describe("The appearance and image-generation flag, '1' allows."),
    /** Ours: '1' once the person confirmed being 18 or older; chat needs it. */
    adult: flag.describe("'1' once the person confirmed being 18 or older; chat needs it."),
    name: z.string(),
    userName: z.string(),
    userEmail: z.string(),
    userPicture: z.string(),
    /** Ours: the UI language chosen with the account (en, es, fr, de, it, pt); "" = the browser's. */
    uiLanguage: z
      .string()
      .describe('The UI language chosen with the account (en, es, fr, de, it, pt); "" = the browser\'s.'),
    /**
     * Ours: whether the account has the admin role, computed by the server from the database on
     * every answer (never taken from the client). The SPA shows the Admin menu entry from it; the
     * admin API still checks the role on every call.
     */
    isAdmin: z.boolean().describe("Whether the account has the admin role (from the database)."),
  })
  .meta({ id: "SessionUser", description: "The session user stored under the `user` key." });
export type SessionUser = z.infer<typeof SessionUser>;

/** product.md §3: the session token stored under the `token` key. expirationTime in epoch ms. */
export const SessionToken = z
  .object({
    token: z.string(),
    expirationTime: z.number().describe("Epoch ms."),
  })
  .meta({ id: "SessionToken", description: "The session token stored under the `token` key." });
export type SessionToken = z.infer<typeof SessionToken>;

/**
 * product.md §3 "User profile" (`GET users/profile`): userPicture is a file name under
 * /content/users/; chatLimit and chatCount are the messages of the current quota period.
 */
export const UserProfile = z
  .object({
    name: z.string(),
    userName: z.string(),
    /** "" for a guest (demo) account. */
    userEmail: z.string().describe('"" for a guest (demo) account.'),
    pricingPlanName: z.string(),
    chatLimit: z.number(),
    chatCount: z.number(),
    userPicture: z.string().describe("A file name under /content/users/."),
    /** Ours: whether the account has the admin role (the server's answer from the database). */
    isAdmin: z.boolean().describe("Whether the account has the admin role (from the database)."),
  })
  .meta({
    id: "UserProfile",
    description: "The user's profile; chatLimit and chatCount are the messages of the current quota period.",
  });
export type UserProfile = z.infer<typeof UserProfile>;

/**
 * Answer of login, demo-login, device-login, the OAuth callback and extend: `data` of the envelope.
 * expirationTime in epoch ms (the SPA keeps its own expiry, web/lib/session.ts).
 */
export const LoginData = z
  .object({
    token: z.string(),
    expirationTime: z.number().describe("Epoch ms: when the session token expires."),
    user: SessionUser,
  })
  .meta({
    id: "LoginData",
    description: "`data` of the sign-in answers: the token, its expiry and the session user.",
  });
export type LoginData = z.infer<typeof LoginData>;

/**
 * The answer of every sign-in (login, demo-login, device-login, the OAuth callback):
 * `data` as LoginData and the landing page (`page`, "/characters/selection" or "/characters/list").
 */
export const SignInReply = envelopeOf(LoginData).meta({
  id: "SignInReply",
  description: "The answer of every sign-in: `data` (token, expiry, session user) and the landing `page`.",
});
export type SignInReply = z.infer<typeof SignInReply>;

/**
 * Ours: `data` of `POST /auth/devices`, a device just registered for device login: its secret,
 * shown this once, and the user agent marker the device sends (`CompanionDevice/<secret>`).
 */
export const RegisteredDevice = z
  .object({
    deviceId: z.string().describe("The device's secret, shown this once."),
    userAgentMarker: z
      .string()
      .describe("What the device adds to its user agent: `CompanionDevice/<secret>`."),
  })
  .meta({
    id: "RegisteredDevice",
    description: "A device just registered for device login (its secret, once).",
  });
export type RegisteredDevice = z.infer<typeof RegisteredDevice>;

/** Ours: `data` of `GET /auth/oauth/platforms`, the OAuth sign-ins this server offers (names only). */
export const OAuthPlatforms = z
  .object({
    platforms: z.array(z.string()).describe("Names of the configured OAuth sign-ins, sorted."),
  })
  .meta({
    id: "OAuthPlatforms",
    description: "The OAuth sign-ins this server offers, for the login buttons.",
  });
export type OAuthPlatforms = z.infer<typeof OAuthPlatforms>;

/**
 * Ours: a device registered for device login, as `GET /auth/devices` lists it. Never
 * its secret. Times in epoch ms; lastUsedAt null until its first device login.
 */
export const SignedInDevice = z
  .object({
    id: z.string(),
    name: z.string(),
    createdAt: z.number().describe("Epoch ms."),
    lastUsedAt: z.number().nullable().describe("Epoch ms; null until its first device login."),
  })
  .meta({ id: "SignedInDevice", description: "A device registered for device login (never its secret)." });
export type SignedInDevice = z.infer<typeof SignedInDevice>;

/**
 * Ours ("Take my data"): an export of the user's data, as `GET /account/export` and
 * `POST /account/export` answer it under `export`. Times in epoch ms (null until ready);
 * `downloadUrl` (an API path, fetched with the bearer token) only while it is ready, for 24 h.
 */
export const DataExport = z
  .object({
    id: z.string(),
    status: z.enum(["queued", "running", "ready", "failed", "expired"]),
    createdAt: z.number().describe("Epoch ms."),
    readyAt: z.number().nullable().describe("Epoch ms; null until ready."),
    expiresAt: z.number().nullable().describe("Epoch ms; null until ready."),
    /** The ZIP's size, bytes (0 until ready). */
    sizeBytes: z.number().describe("The ZIP's size, bytes (0 until ready)."),
    downloadUrl: z
      .string()
      .nullable()
      .describe("An API path fetched with the bearer token, only while the export is ready."),
  })
  .meta({ id: "DataExport", description: 'An export of the user\'s data ("Take my data").' });
export type DataExport = z.infer<typeof DataExport>;

/** Ours: the answer of `GET` and `POST /account/export`; `export` null when there is none. */
export const DataExportAnswer = Envelope.extend({
  export: DataExport.nullable().describe("null when there is none."),
}).meta({ id: "DataExportAnswer", description: "The answer of GET and POST /account/export." });
export type DataExportAnswer = z.infer<typeof DataExportAnswer>;
