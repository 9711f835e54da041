// File storage on the local disk under the content folder (default data/content).
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { type ByteRange, contentTypeOf, type FileStorage, type StoredFile } from "./storage";

/** FileStorage on the local disk under `root` (default `data/content`). */
export class LocalStorage implements FileStorage {
  constructor(readonly root: string) {}

  private resolve(key: string): string {
    const full = path.resolve(this.root, key);
    if (!full.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`Invalid storage key: ${key}`);
    return full;
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    const full = this.resolve(key);
    await fs.mkdir(path.dirname(full), { recursive: true });
    await fs.writeFile(full, bytes);
  }

  async copy(from: string, to: string): Promise<void> {
    const dest = this.resolve(to);
    await fs.mkdir(path.dirname(dest), { recursive: true });
    await fs.copyFile(this.resolve(from), dest);
  }

  async remove(key: string): Promise<void> {
    await fs.rm(this.resolve(key), { force: true });
  }

  async removeFolder(prefix: string): Promise<void> {
    await fs.rm(this.resolve(prefix), { recursive: true, force: true });
  }

  async list(prefix: string): Promise<string[]> {
    const root = path.resolve(this.root);
    const folder = prefix === "" ? root : this.resolve(prefix);
    const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true }).catch((error) => {
      // A missing folder, or a file where the folder would be, holds nothing.
      if (["ENOENT", "ENOTDIR"].includes((error as NodeJS.ErrnoException).code ?? "")) return [];
      throw error;
    });
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
      .sort();
  }

  async exists(key: string): Promise<boolean> {
    try {
      await fs.access(this.resolve(key));
      return true;
    } catch {
      return false;
    }
  }

  async read(key: string): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(this.resolve(key));
    } catch {
      return undefined;
    }
  }

  async stat(key: string): Promise<StoredFile | undefined> {
    const stat = await fs.stat(this.resolve(key)).catch(() => undefined);
    if (!stat?.isFile()) return undefined;
    return {
      size: stat.size,
      lastModified: stat.mtime,
      contentType: contentTypeOf(key),
      // The weak tag @fastify/static (send) gave, so browsers' cached copies stay valid.
      etag: `W/"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`,
    };
  }

  async stream(key: string, range?: ByteRange): Promise<Readable | undefined> {
    // Opened first, so a missing file is undefined here rather than an error on the stream.
    const handle = await fs.open(this.resolve(key), "r").catch(() => undefined);
    if (!handle) return undefined;
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      return undefined;
    }
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }
}
