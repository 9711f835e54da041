// Speaking the chat's greeting (product.md §4 "Greeting"): asks its audio once per greeting and autoplays it in order.
import { useEffect, useRef, useState } from "react";
import type { ChatHistoryEntry } from "../../../../common/api";
import { FIRST_MESSAGE_MARKER } from "../../../../common/constants";
import { sendAudioMessage } from "../../../api/voice";
import { audioPlayer } from "../../../lib/audioPlayer";

export interface GreetingVoiceOptions {
  /** The chat's entries in order (history, then what was sent on this screen). */
  entries: ChatHistoryEntry[];
  /** The group id in a group chat, else the character id (the call's `id`). */
  chatId: string;
  /** Settings 'mute voice', or the server speaks no replies: nothing is asked then. */
  mute: boolean;
  /** The history and the capabilities have loaded: until then nothing is decided. */
  ready: boolean;
  /** The microphone is on: the greeting is not played into it (its button stays). */
  listening: boolean;
}

/**
 * Speaks the chat's greeting (product.md §4 "Greeting", product.md §7 audio-message call): when the
 * screen shows greetings (the entries of `##first-message##`) that have no audio yet and nothing
 * was said after them, it asks POST /chat/audio-message with `is_greeting=1` once per greeting
 * (one per member in a group, in order) and autoplays the `audioUrl` (not on Apple systems,
 * product.md §4), queued one after another. A greeting already spoken (it has audio) or followed by
 * other messages is left alone: its play button is enough. Muted or not yet `ready`: nothing.
 * In voice chat the greeting is spoken the same way; tapping the microphone stops it (as it stops
 * a reply) and a greeting whose audio arrives while the microphone is on is not played into it.
 * Audio that arrives after the user has sent something is not played either (it would cut into
 * the reply's): the bubble gets its button only.
 * @returns the audio of each greeting spoken on this screen, by chatHistoryUUID, so its bubble
 * gets its play/stop button without a reload. A failed call is logged only (product.md §8).
 */
export function useGreetingVoice({
  entries,
  chatId,
  mute,
  ready,
  listening,
}: GreetingVoiceOptions): Map<string, string> {
  const listeningRef = useRef(listening);
  listeningRef.current = listening;
  /** The entries as now rendered: a message sent while the greeting's audio was asked for wins. */
  const entriesRef = useRef(entries);
  entriesRef.current = entries;
  const handled = useRef(new Set<string>());
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const [spoken, setSpoken] = useState<Map<string, string>>(() => new Map());

  useEffect(() => {
    if (!ready) return;
    const lastOther = entries.findLastIndex((entry) => entry.chatHistoryMessage !== FIRST_MESSAGE_MARKER);
    const greetings = entries.filter(
      (entry, index) =>
        index > lastOther &&
        entry.chatHistoryMessage === FIRST_MESSAGE_MARKER &&
        entry.chatHistoryUUID !== "" &&
        entry.chatHistoryReplyMessage !== "" &&
        entry.chatHistoryReplyAudioUrl === "" &&
        !handled.current.has(entry.chatHistoryUUID),
    );
    // Every greeting seen is decided once: muted now means it stays silent on this screen.
    for (const entry of entries) {
      if (entry.chatHistoryMessage === FIRST_MESSAGE_MARKER) handled.current.add(entry.chatHistoryUUID);
    }
    if (mute || greetings.length === 0) return;
    void (async () => {
      let first = true;
      for (const greeting of greetings) {
        try {
          const answer = await sendAudioMessage({
            message: "",
            chatId,
            characterId: greeting.characterUUID,
            isGreeting: true,
            mute: false,
          });
          const url = answer.success === 1 ? (answer.audioUrl ?? "") : "";
          if (!mounted.current) return;
          if (!url) continue;
          setSpoken((before) => new Map(before).set(greeting.chatHistoryUUID, url));
          if (listeningRef.current || saidSince(entriesRef.current, greeting.chatHistoryUUID)) continue;
          audioPlayer.autoplay(url, !first, greeting.chatHistoryUUID);
          first = false;
        } catch (error) {
          console.error("chat/audio-message greeting", error);
        }
      }
    })();
  }, [entries, chatId, mute, ready]);

  return spoken;
}

/** Whether anything but greetings follows the entry `id` in `entries`. */
function saidSince(entries: ChatHistoryEntry[], id: string): boolean {
  const at = entries.findIndex((entry) => entry.chatHistoryUUID === id);
  return entries.slice(at + 1).some((entry) => entry.chatHistoryMessage !== FIRST_MESSAGE_MARKER);
}
