// Backup archives encrypted with a passphrase: AES-256-GCM (authenticated) under a key derived by scrypt, as one stream.
import { createCipheriv, createDecipheriv, randomBytes, scrypt } from "node:crypto";
import fs from "node:fs";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";

/** The first bytes of an encrypted archive: the format's name and version. */
const MAGIC = Buffer.from("CMPBAK1\n");
const SALT_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = MAGIC.length + SALT_BYTES + IV_BYTES;

/** Thrown when an encrypted archive cannot be opened: wrong passphrase, or changed bytes. */
export class ArchiveRefusedError extends Error {}

/** The archive key: scrypt (N = 2^15, r = 8, p = 1) of the passphrase and the archive's salt, 32 bytes. */
function deriveKey(passphrase: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(passphrase, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * A stream that encrypts what passes through: it writes the header (magic, salt, IV), the
 * ciphertext, and at the end the 16-byte GCM tag that authenticates all of it.
 */
export async function encryptingStream(passphrase: string): Promise<Transform> {
  const salt = randomBytes(SALT_BYTES);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", await deriveKey(passphrase, salt), iv);
  cipher.setAAD(MAGIC);
  let started = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!started) {
        started = true;
        this.push(Buffer.concat([MAGIC, salt, iv]));
      }
      done(null, cipher.update(chunk));
    },
    flush(done) {
      if (!started) this.push(Buffer.concat([MAGIC, salt, iv]));
      this.push(cipher.final());
      done(null, cipher.getAuthTag());
    },
  });
}

/** Whether the file at `file` starts as an encrypted archive does. */
export function isEncrypted(file: string): boolean {
  const fd = fs.openSync(file, "r");
  try {
    const head = Buffer.alloc(MAGIC.length);
    const read = fs.readSync(fd, head, 0, MAGIC.length, 0);
    return read === MAGIC.length && head.equals(MAGIC);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Decrypts the archive `file` into `dest` (mode 0600). The tag is checked at the end: a wrong
 * passphrase or any changed byte removes `dest` and throws.
 * @throws ArchiveRefusedError with a sentence for the operator.
 */
export async function decryptArchive(file: string, dest: string, passphrase: string): Promise<void> {
  if (!passphrase) {
    throw new ArchiveRefusedError(
      "The archive is encrypted: set BACKUP_PASSPHRASE to the passphrase it was made with.",
    );
  }
  const size = fs.statSync(file).size;
  if (size < HEADER_BYTES + TAG_BYTES)
    throw new ArchiveRefusedError("The archive is too short to be a backup.");
  const fd = fs.openSync(file, "r");
  const header = Buffer.alloc(HEADER_BYTES);
  const tag = Buffer.alloc(TAG_BYTES);
  fs.readSync(fd, header, 0, HEADER_BYTES, 0);
  fs.readSync(fd, tag, 0, TAG_BYTES, size - TAG_BYTES);
  fs.closeSync(fd);
  const salt = header.subarray(MAGIC.length, MAGIC.length + SALT_BYTES);
  const iv = header.subarray(MAGIC.length + SALT_BYTES);
  const decipher = createDecipheriv("aes-256-gcm", await deriveKey(passphrase, salt), iv);
  decipher.setAAD(MAGIC);
  decipher.setAuthTag(tag);
  try {
    await pipeline(
      fs.createReadStream(file, { start: HEADER_BYTES, end: size - TAG_BYTES - 1 }),
      decipher,
      fs.createWriteStream(dest, { mode: 0o600 }),
    );
  } catch {
    fs.rmSync(dest, { force: true });
    throw new ArchiveRefusedError(
      "The archive could not be decrypted: the passphrase is wrong or the archive was changed.",
    );
  }
}
