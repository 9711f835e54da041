import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestS3, type TestS3 } from "../../testing/s3-server";
import { createStorage } from "./index";
import { LocalStorage } from "./local";
import { S3Storage } from "./s3";
import type { FileStorage } from "./storage";

/**
 * One contract for every FileStorage: the local disk and S3-compatible object storage
 * (s3rver in process, on 127.0.0.1) behave the same for every call the server makes.
 */

async function text(stream: Readable | undefined): Promise<string | undefined> {
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString();
}

let s3: TestS3;
let tmp: string;
beforeAll(async () => {
  s3 = await startTestS3();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "companion-storage-"));
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const kinds: Array<[string, () => FileStorage]> = [
  ["local disk", () => new LocalStorage(path.join(tmp, "content"))],
  ["S3", () => new S3Storage(s3.config)],
  ["S3 under a prefix", () => new S3Storage({ ...s3.config, prefix: "tenant/one" })],
];

describe.each(kinds)("FileStorage contract: %s", (_name, make) => {
  let storage: FileStorage;
  beforeAll(() => {
    storage = make();
  });

  it("puts, reads, states and replaces a file", async () => {
    const before = Date.now();
    await storage.put("characters/a.jpg", Buffer.from("first"));
    await storage.put("characters/a.jpg", Buffer.from("second version"));
    expect((await storage.read("characters/a.jpg"))?.toString()).toBe("second version");
    expect(await storage.exists("characters/a.jpg")).toBe(true);
    const stat = await storage.stat("characters/a.jpg");
    expect(stat).toMatchObject({ size: 14, contentType: "image/jpeg" });
    expect(stat?.etag).toMatch(/^(W\/)?".+"$/);
    // S3 keeps the date to the second.
    expect(stat!.lastModified.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
    expect(stat!.lastModified.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    await storage.put("voice/v.mp3", Buffer.from("ID3"));
    expect((await storage.stat("voice/v.mp3"))?.contentType).toBe("audio/mpeg");
  });

  it("answers undefined (never throws) for a missing file", async () => {
    expect(await storage.read("characters/none.jpg")).toBeUndefined();
    expect(await storage.stat("characters/none.jpg")).toBeUndefined();
    expect(await storage.stream("characters/none.jpg")).toBeUndefined();
    expect(await storage.exists("characters/none.jpg")).toBe(false);
    // A folder is not a file.
    await storage.put("folder/inside/x.jpg", Buffer.from("x"));
    expect(await storage.stat("folder/inside")).toBeUndefined();
    expect(await storage.stream("folder/inside")).toBeUndefined();
  });

  it("streams a whole file or a byte range of it", async () => {
    await storage.put("voice/range.mp3", Buffer.from("0123456789"));
    expect(await text(await storage.stream("voice/range.mp3"))).toBe("0123456789");
    expect(await text(await storage.stream("voice/range.mp3", { start: 2, end: 5 }))).toBe("2345");
    expect(await text(await storage.stream("voice/range.mp3", { start: 9, end: 9 }))).toBe("9");
  });

  it("copies a file, and refuses to copy a missing one", async () => {
    await storage.put("predefined-characters/p.jpg", Buffer.from("preset"));
    await storage.copy("predefined-characters/p.jpg", "characters/copy of p.jpg");
    expect((await storage.read("characters/copy of p.jpg"))?.toString()).toBe("preset");
    expect((await storage.read("predefined-characters/p.jpg"))?.toString()).toBe("preset");
    await expect(storage.copy("predefined-characters/none.jpg", "characters/x.jpg")).rejects.toThrow();
  });

  it("removes a file; removing a missing one is not an error", async () => {
    await storage.put("users/u.jpg", Buffer.from("u"));
    await storage.remove("users/u.jpg");
    expect(await storage.exists("users/u.jpg")).toBe(false);
    await storage.remove("users/u.jpg");
  });

  it("removes a folder with everything under it, and nothing beside it", async () => {
    const chat = "11111111-2222-3333-4444-555555555555";
    await storage.put(`${chat}/a.jpg`, Buffer.from("a"));
    await storage.put(`${chat}/user_photo/b.jpg`, Buffer.from("b"));
    // A sibling whose name starts with the folder's.
    await storage.put(`${chat}x/keep.jpg`, Buffer.from("k"));
    await storage.removeFolder(chat);
    expect(await storage.exists(`${chat}/a.jpg`)).toBe(false);
    expect(await storage.exists(`${chat}/user_photo/b.jpg`)).toBe(false);
    expect(await storage.exists(`${chat}x/keep.jpg`)).toBe(true);
    await storage.removeFolder(chat);
    await storage.removeFolder("never-made");
  });

  it("lists the files under a folder, or all of them, as whole sorted keys", async () => {
    const fresh = make();
    const area = `list-${Math.random().toString(36).slice(2, 8)}`;
    await fresh.put(`${area}/b.jpg`, Buffer.from("b"));
    await fresh.put(`${area}/a/deep/c.mp3`, Buffer.from("c"));
    await fresh.put(`${area}/a.jpg`, Buffer.from("a"));
    // A sibling whose name starts with the folder's is not under it.
    await fresh.put(`${area}x/other.jpg`, Buffer.from("o"));
    expect(await fresh.list(area)).toEqual([`${area}/a.jpg`, `${area}/a/deep/c.mp3`, `${area}/b.jpg`]);
    expect(await fresh.list(`${area}/a`)).toEqual([`${area}/a/deep/c.mp3`]);
    expect(await fresh.list(`${area}/none`)).toEqual([]);
    // A file is not a folder.
    expect(await fresh.list(`${area}/b.jpg`)).toEqual([]);
    const all = await fresh.list("");
    expect(all).toEqual(
      expect.arrayContaining([`${area}/b.jpg`, `${area}/a/deep/c.mp3`, `${area}x/other.jpg`]),
    );
    expect(all).toEqual([...all].sort());
    expect(all).not.toContain(`${area}/a`);
    await fresh.removeFolder(area);
    expect(await fresh.list(area)).toEqual([]);
    expect(await fresh.list(`${area}x`)).toEqual([`${area}x/other.jpg`]);
  });

  it("refuses a key that leaves its root", async () => {
    await expect(storage.list("../")).rejects.toThrow(/Invalid storage key/);
    await expect(storage.list("users/../..")).rejects.toThrow(/Invalid storage key/);
    await expect(storage.put("../escape.jpg", Buffer.from("x"))).rejects.toThrow(/Invalid storage key/);
    await expect(storage.copy("users/../../x.jpg", "users/x.jpg")).rejects.toThrow(/Invalid storage key/);
  });
});

describe("S3Storage", () => {
  it("removes a folder of more than one listing page, page by page", async () => {
    const storage = new S3Storage(s3.config, { pageSize: 7 });
    const keys = Array.from({ length: 30 }, (_, i) => `big/${String(i).padStart(2, "0")}.jpg`);
    await Promise.all(keys.map((key) => storage.put(key, Buffer.from("x"))));
    await storage.put("bigger/keep.jpg", Buffer.from("k"));
    await storage.removeFolder("big");
    for (const key of keys) expect(await storage.exists(key), key).toBe(false);
    expect(await storage.exists("bigger/keep.jpg")).toBe(true);
  });

  it("lists a folder of more than one listing page, every page, S3_PREFIX stripped", async () => {
    const storage = new S3Storage({ ...s3.config, prefix: "tenant/pages" }, { pageSize: 7 });
    const keys = Array.from({ length: 30 }, (_, i) => `many/${String(i).padStart(2, "0")}.jpg`);
    await Promise.all(keys.map((key) => storage.put(key, Buffer.from("x"))));
    // (Not "many-more/": s3rver walks folders, so it would list that after "many/", unlike S3.)
    await storage.put("more/keep.jpg", Buffer.from("k"));
    expect(await storage.list("many")).toEqual(keys);
    expect(await storage.list("")).toEqual([...keys, "more/keep.jpg"]);
    // Other prefixes of the bucket stay out of it.
    await new S3Storage({ ...s3.config, prefix: "tenant/pagesx" }).put("many/z.jpg", Buffer.from("z"));
    expect(await storage.list("")).not.toContain("many/z.jpg");
  });

  it("keeps every key under S3_PREFIX, with the extension's Content-Type", async () => {
    await new S3Storage({ ...s3.config, prefix: "tenant/two" }).put("users/p.png", Buffer.from("png"));
    const root = new S3Storage(s3.config);
    expect((await root.read("tenant/two/users/p.png"))?.toString()).toBe("png");
    expect(await root.exists("users/p.png")).toBe(false);
    expect((await root.stat("tenant/two/users/p.png"))?.contentType).toBe("image/png");
  });

  it("gives up on a server that never answers, within its time limit", async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as net.AddressInfo;
    const storage = new S3Storage({ ...s3.config, endpoint: `http://127.0.0.1:${port}`, timeoutMs: 300 });
    try {
      for (const call of [
        () => storage.stat("users/x.jpg"),
        () => storage.put("users/x.jpg", Buffer.from("x")),
        () => storage.stream("users/x.jpg"),
        () => storage.removeFolder("users"),
      ]) {
        const started = Date.now();
        await expect(call()).rejects.toThrow();
        expect(Date.now() - started).toBeLessThan(3000);
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it("is what createStorage makes when S3_BUCKET is set; local disk otherwise", () => {
    expect(createStorage({ s3: s3.config, contentDir: tmp })).toBeInstanceOf(S3Storage);
    expect(createStorage({ s3: undefined, contentDir: tmp })).toBeInstanceOf(LocalStorage);
  });
});
