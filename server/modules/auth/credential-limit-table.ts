// The limits of every route that takes an e-mail with a secret or sends mail to one (README, Security).
import { type Message, msg } from "../../i18n/messages";

/** A route's two limits, as `limitPerAddressAndEmail` (credential-limits.ts) takes them. */
type CredentialLimits = readonly [
  perAddress: { max: number; windowMs: number },
  perEmail: { name: string; max: number; windowMs: number; message: Message },
];

const MINUTE = 60_000;

/**
 * `perAddress` calls per client address across all e-mails in `addressMinutes`; `perEmail` calls
 * per e-mail across all addresses in `emailMinutes`, counted under `name`, refused with `message`.
 */
function limits(
  [perAddress, addressMinutes]: [number, number],
  perEmail: { name: string; max: number; minutes: number; message: Message },
): CredentialLimits {
  return [
    { max: perAddress, windowMs: addressMinutes * MINUTE },
    {
      name: perEmail.name,
      max: perEmail.max,
      windowMs: perEmail.minutes * MINUTE,
      message: perEmail.message,
    },
  ];
}

/**
 * Per route: credential stuffing and mail flooding (no address can be flooded with mail by many
 * clients). The sign-in's per-e-mail window is short: while an account is under attack its owner
 * waits at most five minutes too.
 */
export const CREDENTIAL_LIMITS = {
  /** POST /api/auth/login */
  signIn: limits([30, 15], {
    name: "login-email",
    max: 10,
    minutes: 5,
    message: msg("auth.tooManySignAttemptsAccount"),
  }),
  /** POST /api/auth/forgot-password */
  resetMail: limits([10, 15], {
    name: "forgot-email",
    max: 5,
    minutes: 15,
    message: msg("auth.tooManyResetRequestsE"),
  }),
  /** POST /api/setup */
  setup: limits([30, 15], {
    name: "setup-email",
    max: 10,
    minutes: 15,
    message: msg("auth.tooManySetUpAttempts"),
  }),
  /** POST /api/auth/signup/start */
  signupStart: limits([30, 15], {
    name: "signup-start-email",
    max: 5,
    minutes: 15,
    message: msg("auth.tooManySignUpCodes"),
  }),
  /** POST /api/auth/signup/finish */
  signupFinish: limits([30, 15], {
    name: "signup-finish-email",
    max: 10,
    minutes: 15,
    message: msg("auth.tooManySignUpAttempts"),
  }),
} as const;
