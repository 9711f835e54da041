// Texts of voice replies and speech input on the chat screen, from the "chat" catalogue's `voice` section.
import i18n, { lookups } from "../../i18n";

/**
 * User-facing texts of voice replies and speech input, looked up in the "chat"
 * catalogue (section `voice`) each time they are read.
 */
export const voiceTexts = lookups(
  "chat",
  "voice.",
  [
    "microphone",
    "stopListening",
    "listening",
    "transcribing",
    "waveform",
    "serverSpeech",
    "noMicrophone",
    "noSpeechAnywhere",
    "micDenied",
    "speechFailed",
    "audioOutput",
    "systemDefault",
    "chooseOutput",
    "notificationsBlocked",
  ] as const,
  {
    playReply: (name: string) => i18n.t("chat:voice.playReply", { name }),
    stopReply: (name: string) => i18n.t("chat:voice.stopReply", { name }),
    replyAudio: (name: string) => i18n.t("chat:voice.replyAudio", { name }),
    greeting: (name: string) => i18n.t("chat:voice.greeting", { name }),
  },
);
