// The model connections' API keys at rest: AES-256-GCM with a key from MODEL_KEYS_SECRET (or the data directory).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { badRequest } from "../../errors";
import { english, msg } from "../../i18n/messages";

/** The stored form's version prefix (a later format can be told apart). */
const PREFIX = "v1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Said when a key would be stored where other instances could not read it back. */
const SECRET_NEEDED_MESSAGE = msg("models.apiKeysStoredOnlyWhen");
/** SECRET_NEEDED_MESSAGE in English, as the API sends it. */
export const SECRET_NEEDED = english(SECRET_NEEDED_MESSAGE);
/** Said when a stored key no longer decrypts (MODEL_KEYS_SECRET or the data directory changed). */
const KEY_UNREADABLE_MESSAGE = msg("models.storedApiKeyCannotRead");
/** KEY_UNREADABLE_MESSAGE in English, as the API sends it. */
export const KEY_UNREADABLE = english(KEY_UNREADABLE_MESSAGE);

/**
 * Encrypts and decrypts the connections' API keys (AES-256-GCM, a fresh IV per key, the tag
 * checked on reading). The plain key lives only in memory, in the providers that send it.
 */
export class KeyBox {
  /**
   * @param key the 32-byte AES key.
   * @param shared whether every instance holds the same key: false when the key was made in
   *   this instance's data directory while the database or storage is shared (keys are refused).
   */
  constructor(
    private readonly key: Buffer,
    readonly shared: boolean,
  ) {}

  /**
   * The stored form of `plain` ("" stays "").
   * @throws AppError 400 SECRET_NEEDED when other instances could not decrypt it.
   */
  encrypt(plain: string): string {
    if (!plain) return "";
    if (!this.shared) throw badRequest(SECRET_NEEDED_MESSAGE);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
  }

  /**
   * The plain key of a stored form ("" stays "").
   * @throws AppError 400 KEY_UNREADABLE when it does not decrypt with this key.
   */
  decrypt(stored: string): string {
    if (!stored) return "";
    try {
      if (!stored.startsWith(PREFIX)) throw new Error("unknown format");
      const raw = Buffer.from(stored.slice(PREFIX.length), "base64");
      const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        "utf8",
      );
    } catch {
      throw badRequest(KEY_UNREADABLE_MESSAGE);
    }
  }
}

/**
 * The key box of this configuration: MODEL_KEYS_SECRET (stretched with HKDF) when set; otherwise
 * a random secret kept in `<dataDir>/model-keys-secret` (made on first use, like the content
 * secret), which only a single instance may rely on: with a PostgreSQL database or S3 storage
 * keys are then refused (env.ts refuses LLM_API_KEY there without the secret).
 */
export function keyBoxFor(config: {
  MODEL_KEYS_SECRET: string;
  DATABASE_URL: string;
  S3_BUCKET: string;
  dataDir: string;
}): KeyBox {
  const stretch = (secret: string) =>
    Buffer.from(hkdfSync("sha256", secret, "model-keys", "model connections api keys", 32));
  if (config.MODEL_KEYS_SECRET) return new KeyBox(stretch(config.MODEL_KEYS_SECRET), true);
  const shared = /^postgres(ql)?:\/\//.test(config.DATABASE_URL) || Boolean(config.S3_BUCKET);
  const file = path.join(config.dataDir, "model-keys-secret");
  let secret: string;
  try {
    secret = fs.readFileSync(file, "utf8").trim();
  } catch {
    secret = randomBytes(32).toString("hex");
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600 });
  }
  return new KeyBox(stretch(secret), !shared);
}
