import { describe, expect, it } from "vitest";
import { inlineDisposition } from "./content.routes";
import { resolveContentPath } from "./content-path";

const ID = "0f8fad5b-d9cb-469f-a165-70867728950e";

describe("resolveContentPath (one normalised path for the check and the file)", () => {
  it("names public files and a chat's files", () => {
    expect(resolveContentPath("/content/user.jpg")).toEqual({ area: "public", key: "user.jpg" });
    expect(resolveContentPath("/content/characters/a.jpg?v=2")).toEqual({
      area: "public",
      key: "characters/a.jpg",
    });
    expect(resolveContentPath("/content/voice/ab.mp3")).toEqual({ area: "public", key: "voice/ab.mp3" });
    expect(resolveContentPath(`/content/${ID}/user_photo/p.jpg`)).toEqual({
      area: "chat",
      chatKey: ID,
      key: `${ID}/user_photo/p.jpg`,
    });
  });

  it("decodes each segment and resolves empty, '.' and '..' segments before deciding", () => {
    const chat = { area: "chat", chatKey: ID, key: `${ID}/p.jpg` };
    for (const target of [
      `/content//${ID}/p.jpg`,
      `/content/./${ID}/p.jpg`,
      `/%63ontent/${ID}/p.jpg`,
      `/content/%30f8fad5b-d9cb-469f-a165-70867728950e/p.jpg`,
      `/content/users/../${ID}/p.jpg`,
      `/content/users/%2e%2e/${ID}/p.jpg`,
      `/content/../content/${ID}/p.jpg`,
    ]) {
      expect(resolveContentPath(target), target).toEqual(chat);
    }
    expect(resolveContentPath("/content/characters/../user.jpg")).toEqual({
      area: "public",
      key: "user.jpg",
    });
  });

  it("refuses what no file of ours is: escapes, encoded separators, NUL, folders, dot-files, other areas", () => {
    for (const target of [
      `/content/${ID}%2Fp.jpg`,
      `/content/users/..%2F${ID}%2Fp.jpg`,
      `/content/users/..%5C${ID}%5Cp.jpg`,
      `/content/${ID}\\p.jpg`,
      `/content/${ID}/p.jpg%00`,
      `/content/${ID}/p%0a.jpg`,
      `/content/${ID}/p.jpg/`,
      `/content/${ID}/`,
      `/content/${ID}`,
      `/content/${ID.toUpperCase()}/p.jpg`,
      `/content/${ID}/.secret`,
      "/content/../content-secret",
      "/content/%2e%2e/app.db",
      "/content/../../etc/passwd",
      "/../content/user.jpg",
      "/content/app.db",
      "/content/characters",
      "/content/characters/nested/a.jpg",
      "/content/Users/a.jpg",
      "/content/%E0%A4%A/a.jpg",
      "/content/user.jpg#x",
      "http://host/content/user.jpg",
      "content/user.jpg",
      "/other/user.jpg",
    ]) {
      expect(resolveContentPath(target), target).toBeUndefined();
    }
  });
});

describe("inlineDisposition", () => {
  it("quotes a plain name and adds filename* for any other", () => {
    expect(inlineDisposition("pic.jpg")).toBe('inline; filename="pic.jpg"');
    expect(inlineDisposition('a"b.jpg')).toBe(`inline; filename="a_b.jpg"; filename*=UTF-8''a%22b.jpg`);
    expect(inlineDisposition("é.jpg")).toBe(`inline; filename="_.jpg"; filename*=UTF-8''%C3%A9.jpg`);
  });
});
