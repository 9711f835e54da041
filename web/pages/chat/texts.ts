/**
 * Every user-facing text of the chat screen in one place, ready for translation (issue 7).
 * Texts quoted by the spec keep the spec's wording (sections 2, 4, 8).
 */
export const chatTexts = {
  loadingChat: "Loading chat",
  // The 18+ gate (issue 5)
  ageTitle: "Are you 18 or older?",
  ageText: "Companion is for adults. Please confirm that you are at least 18 years old to chat.",
  ageConfirm: "Yes, I am 18 or older",
  ageLeave: "No",
  unavailableTitle: "Chat unavailable",
  unavailableText: "We could not open this chat. Pick a character to start chatting.",
  online: "online",
  // Sidebar (spec 2)
  sidebar: "Chat sidebar",
  toggleSidebar: "Toggle sidebar",
  closeSidebar: "Close sidebar",
  currentMembers: "Current Members",
  notInGroup: "Not in Group",
  characters: "Characters",
  noOtherCharacters: "No other characters.",
  // issue 16: the banner when the chat cannot answer (the server's reason when it gives one).
  chatOff: "The chat is not available on this server right now.",
  serverUnreachable: "The server cannot be reached right now. Trying again…",
  groupFull: (max: number) => `A group holds at most ${max} members.`,
  removeMember: (name: string) => `Remove ${name} from the group`,
  addMember: (name: string) => `Add ${name} to the group`,
  chatWith: (name: string) => `Chat with ${name}`,
  // Header (spec 2)
  chatMenu: "Chat menu",
  showPhoto: (name: string) => `Show the photo of ${name}`,
  photoOf: (name: string) => `Photo of ${name}`,
  close: "Close",
  newChat: "New Chat",
  startGroup: "Start Group",
  changeCharacter: "Change Character",
  settings: "Settings",
  updateProfile: "Update Profile",
  changePassword: "Change Password",
  faq: "F.A.Q",
  logout: "Logout",
  // spec 8 "New chat confirmation"
  newChatTitle: "Are you sure you want to start new chat?",
  newChatText: "Your current chat history will be deleted!",
  newChatConfirm: "Yes, start new!",
  cancel: "Cancel",
  // Messages (spec 2, 4)
  messages: "Messages",
  yourMessage: "Your message",
  replyFrom: (name: string) => `Reply from ${name}`,
  character: "Character",
  sending: "Sending",
  failed: "Failed",
  retry: "Retry",
  stop: "Stop",
  continueReply: "Continue",
  typing: "typing",
  isTyping: (name: string) => `${name} is typing`,
  loadingMessages: "Loading messages",
  loadingEarlier: "Loading earlier messages",
  scrollToBottom: "Scroll to bottom",
  failedToSend: "Failed to send the message.",
  failedToReply: "Failed to reply.",
  // Composer (spec 2, 5)
  typeMessage: "Type a message",
  characterCount: "Characters used",
  send: "Send",
  microphone: "Microphone",
  emoji: "Emoji",
  emojiPicker: "Emoji picker",
  searchEmoji: "Search emoji",
  searchHint: "Type at least 2 characters to search.",
  noEmojiFound: "No emoji found.",
  emojiLoading: "Loading…",
  emojiFailed: "Could not load emoji.",
  noColorEmoji: "Your browser does not support color emoji.",
  // Settings (spec 2, 4)
  settingsTitle: "Settings",
  muteVoice: "Mute voice",
  darkMode: "Dark mode",
  bluetooth: "Bluetooth",
  voiceChat: "Voice chat",
  screenWake: "Screen wake",
  notifications: "Notifications",
  silenceDuration: "Silence duration",
  seconds: (count: number) => `${count} s`,
  save: "Save",
  settingsSaved: "Settings saved!",
  screenWakeUnsupported: "This browser cannot keep the screen awake.",
  memories: "Memories",
  noMemories: "Nothing remembered yet.",
  loadingMemories: "Loading memories",
  deleteMemory: (fact: string) => `Delete memory: ${fact}`,
  delete: "Delete",
  memoryDeleted: "Forgotten.",
} as const;

/**
 * spec 3 chat status texts shown in the header; 'downloading...' while a picture of the chat is
 * still being made (chatHistoryImageLoading 1).
 */
export type ChatStatus = "online" | "away" | "replying..." | "sending..." | "downloading...";
