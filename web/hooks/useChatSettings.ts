// The chat Settings (product.md §3 "Settings"): their defaults, the silence choices, kept in local storage under one key.
import { useCallback, useSyncExternalStore } from "react";
import { SENDER_ABOUT_MAX_LENGTH, SENDER_NAME_MAX_LENGTH } from "../../common/constants";
import { CHAT_SETTINGS_KEY } from "../lib/chatSettingsStorage";

export { CHAT_SETTINGS_KEY };

/** product.md §3 "Settings", kept in local storage under one key. */
export interface ChatSettings {
  muteVoice: boolean;
  darkMode: boolean;
  enableBluetooth: boolean;
  enableVoiceChat: boolean;
  enableScreenWake: boolean;
  enableNotifications: boolean;
  /** Milliseconds of silence that end speech input: 1000, 2000, 3000, 5000 or 10000. */
  silenceDuration: number;
  /**
   * Ours: record the microphone and transcribe on the server even where the browser
   * has its own speech recognition.
   */
  useServerSpeech: boolean;
  /**
   * Ours: the audio output (`MediaDeviceInfo.deviceId`) replies play on while
   * 'Bluetooth' is on; "" is the system default.
   */
  audioOutputId: string;
  /**
   * Ours: the name the user goes by in replies, sent as `chat/message` `pname`
   * ("" uses the profile's name). At most SENDER_NAME_MAX_LENGTH characters.
   */
  senderName: string;
  /** Ours: the user's words about themself, sent as `ptext` ("" sends none). */
  senderAbout: string;
}

/** The settings that hold text rather than a switch. */
export type TextSetting = "audioOutputId" | "senderName" | "senderAbout";

/** product.md §9: silence 1, 2, 3, 5 or 10 s. */
export const SILENCE_OPTIONS_MS = [1000, 2000, 3000, 5000, 10000] as const;

/** product.md §9: default silence 2000 ms; notifications on, all else off. */
export const DEFAULT_CHAT_SETTINGS: ChatSettings = {
  muteVoice: false,
  darkMode: false,
  enableBluetooth: false,
  enableVoiceChat: false,
  enableScreenWake: false,
  enableNotifications: true,
  silenceDuration: 2000,
  useServerSpeech: false,
  audioOutputId: "",
  senderName: "",
  senderAbout: "",
};

const listeners = new Set<() => void>();
let cachedRaw: string | null | undefined;
let cached: ChatSettings = DEFAULT_CHAT_SETTINGS;

/** Reads the stored settings; unknown or broken values fall back to the defaults. */
export function readChatSettings(): ChatSettings {
  const raw = localStorage.getItem(CHAT_SETTINGS_KEY);
  if (raw === cachedRaw) return cached;
  cachedRaw = raw;
  let stored: Partial<ChatSettings> = {};
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (typeof parsed === "object" && parsed !== null) stored = parsed as Partial<ChatSettings>;
  } catch {
    stored = {};
  }
  const flag = (key: Exclude<keyof ChatSettings, "silenceDuration" | TextSetting>) =>
    typeof stored[key] === "boolean" ? (stored[key] as boolean) : DEFAULT_CHAT_SETTINGS[key];
  const text = (key: TextSetting, max: number) =>
    typeof stored[key] === "string" ? (stored[key] as string).slice(0, max) : "";
  const silence = SILENCE_OPTIONS_MS.find((value) => value === stored.silenceDuration);
  cached = {
    muteVoice: flag("muteVoice"),
    darkMode: flag("darkMode"),
    enableBluetooth: flag("enableBluetooth"),
    enableVoiceChat: flag("enableVoiceChat"),
    enableScreenWake: flag("enableScreenWake"),
    enableNotifications: flag("enableNotifications"),
    silenceDuration: silence ?? DEFAULT_CHAT_SETTINGS.silenceDuration,
    useServerSpeech: flag("useServerSpeech"),
    audioOutputId: text("audioOutputId", 200),
    senderName: text("senderName", SENDER_NAME_MAX_LENGTH),
    senderAbout: text("senderAbout", SENDER_ABOUT_MAX_LENGTH),
  };
  return cached;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

/** The chat settings (product.md §2 "Settings popup") and a function that stores new ones. */
export function useChatSettings(): [ChatSettings, (next: ChatSettings) => void] {
  const settings = useSyncExternalStore(subscribe, readChatSettings, () => DEFAULT_CHAT_SETTINGS);
  const save = useCallback((next: ChatSettings) => {
    localStorage.setItem(CHAT_SETTINGS_KEY, JSON.stringify(next));
    for (const listener of listeners) listener();
  }, []);
  return [settings, save];
}
