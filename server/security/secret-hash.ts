// How bearer tokens, device secrets and set-up tokens are hashed for storage and look-up.
import { createHash } from "node:crypto";

/**
 * How a bearer token or a device secret is stored and looked up: sha256, lower-case hex. Only
 * this hash is kept (`auth_tokens.token_hash`, `devices.secret_hash`); the picture cookie names a
 * session by it too.
 */
export function secretHash(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}
