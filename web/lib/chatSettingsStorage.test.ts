// Tests of the entry chunk's light read of the stored 'dark mode', against the full settings reader.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readChatSettings } from "../hooks/useChatSettings";
import { CHAT_SETTINGS_KEY, readStoredDarkMode } from "./chatSettingsStorage";

describe("readStoredDarkMode", () => {
  const store = new Map<string, string>();
  beforeEach(() => {
    store.clear();
    vi.stubGlobal("localStorage", {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => store.set(key, value),
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  it("is true only when the stored settings say darkMode: true", () => {
    store.set(CHAT_SETTINGS_KEY, JSON.stringify({ darkMode: true, muteVoice: true }));
    expect(readStoredDarkMode()).toBe(true);
    store.set(CHAT_SETTINGS_KEY, JSON.stringify({ darkMode: false }));
    expect(readStoredDarkMode()).toBe(false);
  });

  it("falls back to false for missing, broken or non-boolean values", () => {
    expect(readStoredDarkMode()).toBe(false);
    for (const raw of ["{", "null", "true", "[]", '"x"', '{"darkMode":"true"}', '{"darkMode":1}']) {
      store.set(CHAT_SETTINGS_KEY, raw);
      expect(readStoredDarkMode(), raw).toBe(false);
    }
  });

  it("agrees with the full settings reader", () => {
    for (const raw of [
      undefined,
      '{"darkMode":true}',
      '{"darkMode":false}',
      '{"darkMode":"yes"}',
      "{",
      "7",
    ]) {
      if (raw === undefined) store.delete(CHAT_SETTINGS_KEY);
      else store.set(CHAT_SETTINGS_KEY, raw);
      expect(readStoredDarkMode(), String(raw)).toBe(readChatSettings().darkMode);
    }
  });
});
