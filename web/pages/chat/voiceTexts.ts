/** User-facing texts of voice replies and speech input (issue 7), in one place for translation. */
export const voiceTexts = {
  playReply: (name: string) => `Play ${name}'s reply`,
  stopReply: (name: string) => `Stop ${name}'s reply`,
  replyAudio: (name: string) => `${name}'s reply, spoken`,
  microphone: "Microphone",
  stopListening: "Stop listening",
  listening: "Listening…",
  transcribing: "Transcribing…",
  waveform: "Recording level",
  serverSpeech: "Speech recognition on the server",
  // Why the microphone is off (issue 7: it says why instead of failing silently).
  noMicrophone: "This browser cannot use a microphone here (it needs HTTPS and microphone support).",
  noSpeechAnywhere:
    "Speech input is not available: this browser has no speech recognition and the server has no transcription endpoint (STT_BASE_URL).",
  micDenied: "Microphone access was refused. Allow it in the browser's site settings to speak.",
  speechFailed: "Speech could not be recognised. Please try again.",
  // Settings (issue 16).
  audioOutput: "Audio output",
  systemDefault: "System default",
  chooseOutput: "Choose output…",
  notificationsBlocked: "The browser blocks notifications for this site: only the notice sound plays.",
  greeting: (name: string) => `${name}'s greeting, spoken`,
} as const;
