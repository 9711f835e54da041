// The chat's microphone and hands-free voice chat (product.md §4 "Voice chat", §5, §9): speech sent as messages, listening resumed.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { LISTEN_RESUME_DELAY_MS, LISTENING_PLACEHOLDER } from "../../../../common/speech";
import type { Capability } from "../../../api/capabilities";
import { useVoices } from "../../../hooks/useVoices";
import { audioPlayer } from "../../../lib/audioPlayer";
import { scheduleVoiceCue } from "../../../lib/voiceCue";
import { useVoiceInput, type VoiceInputState } from "./useVoiceInput";

export interface ChatVoiceOptions {
  /** The server's transcription path (capabilities `speechInput`). */
  server: Capability | undefined;
  preferServer: boolean;
  silenceMs: number;
  /** Settings 'voice chat' (product.md §2, 4). */
  voiceChat: boolean;
  /** The voice name of the character that replies (its language is the speech language). */
  characterVoice: string;
  /** Sends a message; false when it could not be sent now. */
  send: (text: string) => boolean;
  /** A reply is on its way (voice chat waits for it before listening again). */
  isReplying: boolean;
}

export interface ChatVoice {
  available: Capability;
  state: VoiceInputState;
  stream: MediaStream | null;
  /** The voice-chat loop is running (listening resumes after each reply). */
  active: boolean;
  /** The microphone button: starts listening, or stops it (and the voice-chat loop). */
  toggle: () => void;
}

const wait = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));

/**
 * The chat's microphone and hands-free voice chat (product.md §4 "Voice chat", product.md §5):
 * what is said is sent as a message; in voice chat an empty result is sent as 'listening'
 * (product.md §5), and once the reply has arrived and its audio finished playing, listening resumes
 * 1000 ms later with the cue 300 ms after that (product.md §9). The loop stops with the button.
 * Inside the mobile app wrapper its own listener does the listening (useVoiceInput, product.md §4).
 */
export function useChatVoice(options: ChatVoiceOptions): ChatVoice {
  const voices = useVoices().data;
  const language = voices?.find((v) => v.voiceName === options.characterVoice)?.languageCode ?? "en";
  const [active, setActive] = useState(false);
  const [awaitingReply, setAwaitingReply] = useState(false);
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const activeRef = useRef(false);
  activeRef.current = active;

  const input = useVoiceInput({
    server: options.server,
    preferServer: options.preferServer,
    silenceMs: options.silenceMs,
    language,
    onResult: (text) => {
      const { voiceChat, send } = optionsRef.current;
      const message = text || (voiceChat ? LISTENING_PLACEHOLDER : "");
      if (message && send(message)) {
        if (voiceChat) setAwaitingReply(true);
        return;
      }
      if (voiceChat && activeRef.current) setAwaitingReply(true);
    },
  });
  const inputRef = useRef(input);
  inputRef.current = input;
  /** Cancels the pending voice-chat cue (listening stopped within 300 ms). */
  const cancelCue = useRef<() => void>(() => {});
  const cue = useCallback(() => {
    cancelCue.current();
    cancelCue.current = scheduleVoiceCue();
  }, []);
  useEffect(() => () => cancelCue.current(), []);

  // Voice chat: after the reply (and its audio), listen again 1 s later; the cue 300 ms after.
  useEffect(() => {
    if (!awaitingReply || options.isReplying) return;
    let cancelled = false;
    void (async () => {
      await wait(50);
      await audioPlayer.idle();
      await wait(LISTEN_RESUME_DELAY_MS);
      if (cancelled || !activeRef.current || !optionsRef.current.voiceChat) return;
      setAwaitingReply(false);
      inputRef.current.start();
      // product.md §4, 9: the cue 300 ms after listening starts (the effect ends here: not cancelled by it).
      cue();
    })();
    return () => {
      cancelled = true;
    };
  }, [awaitingReply, options.isReplying, cue]);

  useEffect(() => {
    if (!options.voiceChat) setActive(false);
  }, [options.voiceChat]);

  const toggle = useCallback(() => {
    const current = inputRef.current;
    if (current.state !== "idle" || activeRef.current) {
      current.cancel();
      cancelCue.current();
      setActive(false);
      setAwaitingReply(false);
      return;
    }
    if (!current.available.enabled) return;
    // A reply still speaking would be heard by the microphone.
    audioPlayer.stop();
    setActive(optionsRef.current.voiceChat);
    current.start();
    if (optionsRef.current.voiceChat) cue();
  }, [cue]);

  // One identity while nothing changes, so the memoized composer is not re-rendered for each token.
  const { available, state, stream } = input;
  return useMemo(
    () => ({ available, state, stream, active, toggle }),
    [available, state, stream, active, toggle],
  );
}
