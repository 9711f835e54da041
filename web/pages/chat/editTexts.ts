/**
 * The texts of swipes, regenerate, edit, delete and rewind on the chat screen (issue 17), plain
 * English in one place so they can be translated together later.
 */
export const editTexts = {
  // Swipes (issue 17 "Swipes / regenerate")
  previousReply: "Previous reply",
  nextReply: "Next reply",
  replyPosition: (index: number, count: number) => `${index + 1}/${count}`,
  replyPositionLabel: (index: number, count: number) => `Reply ${index + 1} of ${count}`,
  regenerate: "Regenerate",
  regenerateReply: "Regenerate reply",
  regenerateFailed: "Could not write another reply.",
  swipeFailed: "Could not show that reply.",
  // The per-message menu (issue 17 "Edit, delete and rewind")
  messageActions: "Message actions",
  edit: "Edit",
  delete: "Delete",
  rewind: "Rewind to here",
  editMessage: "Edit your message",
  editReply: "Edit the reply",
  save: "Save",
  cancel: "Cancel",
  saving: "Saving",
  editFailed: "Could not save the change.",
  deleteTitle: "Delete this message?",
  deleteText: "The message and its reply are removed for good, with their pictures and audio.",
  deleteConfirm: "Yes, delete",
  deleteFailed: "Could not delete the message.",
  rewindTitle: "Rewind the chat to here?",
  rewindText: "Every later message is removed for good, with its pictures and audio.",
  rewindConfirm: "Yes, rewind",
  rewindFailed: "Could not rewind the chat.",
} as const;
