// Opening a backup archive: decrypting it when needed, unpacking only the names an archive may hold, and checking every entry against the manifest.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import tar from "tar-stream";
import { ArchiveRefusedError, decryptArchive, isEncrypted } from "./encryption";
import { ARCHIVE_FORMAT, isAllowedEntry, MANIFEST_ENTRY, type Manifest } from "./manifest";

export { ArchiveRefusedError } from "./encryption";

/** Unpacks the plain .tar.gz `file` into `dest`, hashing each entry; refuses unexpected entries. */
async function unpack(file: string, dest: string): Promise<Map<string, { size: number; sha256: string }>> {
  const seen = new Map<string, { size: number; sha256: string }>();
  let refused: ArchiveRefusedError | undefined;
  const extract = tar.extract();
  extract.on("entry", (header, stream, next) => {
    const name = header.name;
    if (refused || header.type !== "file" || !isAllowedEntry(name) || seen.has(name)) {
      // Nothing more is written once one entry is refused; the rest is read through and dropped.
      refused ??= new ArchiveRefusedError(
        `The archive holds an entry no backup has: ${JSON.stringify(name)}.`,
      );
      stream.on("end", () => next());
      stream.resume();
      return;
    }
    const target = path.join(dest, name);
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    const hash = createHash("sha256");
    let size = 0;
    stream.on("data", (chunk) => {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    });
    pipeline(stream, fs.createWriteStream(target, { mode: 0o600 })).then(() => {
      seen.set(name, { size, sha256: hash.digest("hex") });
      next();
    }, next);
  });
  try {
    await pipeline(fs.createReadStream(file), createGunzip(), extract);
  } catch (error) {
    if (error instanceof ArchiveRefusedError) throw error;
    throw new ArchiveRefusedError(`The archive is damaged and cannot be read (${(error as Error).message}).`);
  }
  if (refused) throw refused;
  return seen;
}

/**
 * Opens the archive `file` into the empty folder `dest` and checks it: the manifest is there and
 * of a known format, every entry it lists is there with its size and sha256, and nothing else is.
 * An encrypted archive (.enc) is decrypted first with `passphrase` (its tag authenticates it).
 * @returns the manifest; the entries are files under `dest` (database/, secrets/, content/).
 * @throws ArchiveRefusedError naming what is wrong (a tampered, truncated or foreign archive).
 */
export async function openBackup(file: string, dest: string, passphrase: string): Promise<Manifest> {
  if (!fs.existsSync(file)) throw new ArchiveRefusedError(`There is no file ${file}.`);
  let plain = file;
  if (isEncrypted(file)) {
    plain = path.join(dest, ".decrypted.tar.gz");
    await decryptArchive(file, plain, passphrase);
  }
  let seen: Map<string, { size: number; sha256: string }>;
  try {
    seen = await unpack(plain, dest);
  } finally {
    if (plain !== file) fs.rmSync(plain, { force: true });
  }
  if (!seen.has(MANIFEST_ENTRY))
    throw new ArchiveRefusedError("The archive has no manifest: it is not a complete backup.");
  let manifest: Manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dest, MANIFEST_ENTRY), "utf8")) as Manifest;
  } catch {
    throw new ArchiveRefusedError("The archive's manifest cannot be read.");
  }
  if (typeof manifest.format !== "number" || manifest.format > ARCHIVE_FORMAT || !manifest.files) {
    throw new ArchiveRefusedError("The archive was written in a newer format than this version reads.");
  }
  for (const [name, expected] of Object.entries(manifest.files)) {
    const actual = seen.get(name);
    if (!actual) throw new ArchiveRefusedError(`The archive is missing ${name}, which its manifest lists.`);
    if (actual.size !== expected.size || actual.sha256 !== expected.sha256) {
      throw new ArchiveRefusedError(`The archive was changed: ${name} does not match its checksum.`);
    }
  }
  for (const name of seen.keys()) {
    if (name !== MANIFEST_ENTRY && !(name in manifest.files)) {
      throw new ArchiveRefusedError(`The archive holds ${name}, which its manifest does not list.`);
    }
  }
  if (!(manifest.database?.entry in manifest.files))
    throw new ArchiveRefusedError("The archive holds no database copy.");
  return manifest;
}
