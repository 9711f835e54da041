// Swipes, regenerate, edit, delete and rewind on the chat screen, applied to the cached history and the live items.
import { startTransition, useCallback, useRef, useState } from "react";
import type { ChatHistoryEntry } from "../../../../common/api";
import { RULES } from "../../../../common/validation";
import { editEntry, removeEntries, swipeReply } from "../../../api/edits";
import { failureAction, refusalOf } from "../../../api/failureAction";
import { AppSwal } from "../../../lib/dialogs";
import { localCheck } from "../../../lib/validationText";
import { editTexts } from "../editTexts";
import type { LiveChat } from "./useChatSender";
import { useFailureResponse } from "./useFailureResponse";
import { useHistoryWrites } from "./useHistoryWrites";
import { useRegenerate } from "./useRegenerate";

/** Which text of an entry is edited: the user's message or the reply's ("Edit"). */
export type EditPart = "message" | "reply";

/**
 * The sentence a text the user edited breaks, the server's own (common/validation.ts: the chat
 * message's rule for "message", `replyEdit` for "reply") in the current language
 * (web/lib/validationText.ts), or null when it may be saved.
 */
export function editProblem(part: EditPart, text: string): string | null {
  return localCheck(part === "message" ? RULES.chatMessage : RULES.replyEdit, text);
}

export interface MessageEditing {
  /** Whether the chat is a group (Regenerate on each member's newest reply). */
  isGroup: boolean;
  /** An action of this hook is in flight (or the chat cannot act now): the controls are off. */
  busy: boolean;
  /** The chat can answer now: Regenerate is offered. */
  canReply: boolean;
  /** The entry and part being edited inline, or null. */
  editing: { id: string; part: EditPart } | null;
  startEdit: (id: string, part: EditPart) => void;
  cancelEdit: () => void;
  /**
   * Saves the edited text (POST /chat/edit). @returns the sentence to show under the box when it
   * was refused (client rule or the server's message), or null once saved (the edit closes).
   */
  saveEdit: (entry: ChatHistoryEntry, part: EditPart, text: string) => Promise<string | null>;
  /** Chooses swipe `index` of the entry's reply (POST /chat/swipe). */
  swipe: (entry: ChatHistoryEntry, index: number) => void;
  /** Writes a new reply for the entry, streamed into its bubble (POST /chat/regenerate). */
  regenerate: (entry: ChatHistoryEntry) => void;
  /** Confirms, then removes the entry (POST /chat/delete). */
  remove: (entry: ChatHistoryEntry) => void;
  /** Confirms, then removes every later entry (POST /chat/rewind). */
  rewind: (entry: ChatHistoryEntry) => void;
}

export interface MessageEditingTarget {
  userId: string;
  chatId: string;
  isGroup: boolean;
  /** Ask for no spoken audio with a regenerated reply. */
  mute: boolean;
  /** The chat can answer now (capability `chat`): Regenerate needs the model. */
  canReply: boolean;
}

/** Asks to confirm a delete or rewind (a warning dialog with Cancel); true when confirmed. */
async function confirmEdit(title: string, text: string, confirmButtonText: string): Promise<boolean> {
  const answer = await AppSwal.fire({
    icon: "warning",
    titleText: title,
    text,
    showCancelButton: true,
    confirmButtonText,
    cancelButtonText: editTexts.cancel,
  });
  return answer.isConfirmed;
}

/**
 * Swipes, regenerate, edit, delete and rewind on the chat screen. Each answer is put
 * into both places the screen shows entries from (`useHistoryWrites`): the cached history pages
 * and the live items of this screen, so an entry sent on this screen changes as well as one
 * loaded from the history; a delete or rewind also refetches the loaded pages and drops the
 * cached photo list; an edit, delete or rewind drops the cached memories (the server drew them
 * again from what is left). Regenerate streams like Continue (`useRegenerate`). A failure is
 * decided from its error code (`failureAction`, carried out by `useFailureResponse`): a refusal
 * shows the server's message as a warning toast, one at the message limit opens the plan page
 * with the message as navigation state `notice`, as a refused send does; transport failures
 * show this screen's own sentence. An edit's failure shows under its box instead.
 */
export function useMessageEditing(target: MessageEditingTarget, live: LiveChat): MessageEditing {
  const { userId, chatId, isGroup, mute, canReply } = target;
  const [pending, setPending] = useState(0);
  const [editing, setEditing] = useState<MessageEditing["editing"]>(null);
  const busyRef = useRef(false);
  busyRef.current = pending > 0 || live.state.busy;
  const { keyRef, changed, removed, forgetMemories } = useHistoryWrites(userId, chatId, live);
  const respond = useFailureResponse();

  /** Runs one action with the controls off; failures are logged and answered (`fallback` for no refusal). */
  const act = useCallback(
    async (name: string, fallback: string, work: () => Promise<void>) => {
      if (busyRef.current) return;
      busyRef.current = true;
      setPending((count) => count + 1);
      try {
        await work();
      } catch (error) {
        console.error(`chat/${name}`, error);
        const refusal = refusalOf(error);
        if (refusal !== null) respond(failureAction(refusal, fallback));
      } finally {
        setPending((count) => count - 1);
      }
    },
    [respond],
  );

  const swipe = useCallback(
    (entry: ChatHistoryEntry, index: number) =>
      void act("swipe", editTexts.swipeFailed, async () => {
        changed(await swipeReply(entry.chatHistoryUUID, index));
      }),
    [act, changed],
  );

  const saveEdit = useCallback(
    async (entry: ChatHistoryEntry, part: EditPart, text: string): Promise<string | null> => {
      const problem = editProblem(part, text);
      if (problem !== null) return problem;
      if (busyRef.current) return null;
      busyRef.current = true;
      setPending((count) => count + 1);
      try {
        const saved = await editEntry(entry.chatHistoryUUID, part, text.trim());
        // The box closes in the same render as the list shows the new text (the list renders its
        // items deferred: closing at once would show the old text for a moment).
        startTransition(() => {
          changed(saved);
          setEditing(null);
        });
        forgetMemories();
        return null;
      } catch (error) {
        console.error("chat/edit", error);
        const refusal = refusalOf(error);
        const action = refusal === null ? null : failureAction(refusal, editTexts.editFailed);
        return action === null || action.kind === "signIn" ? null : action.message;
      } finally {
        setPending((count) => count - 1);
      }
    },
    [changed, forgetMemories],
  );

  /** Confirms, then removes with `action` (POST /chat/delete or /chat/rewind). */
  const removeAfterConfirm = (action: "delete" | "rewind", entry: ChatHistoryEntry) =>
    void (async () => {
      if (busyRef.current) return;
      const del = action === "delete";
      const confirmed = await confirmEdit(
        del ? editTexts.deleteTitle : editTexts.rewindTitle,
        del ? editTexts.deleteText : editTexts.rewindText,
        del ? editTexts.deleteConfirm : editTexts.rewindConfirm,
      );
      if (!confirmed) return;
      await act(action, del ? editTexts.deleteFailed : editTexts.rewindFailed, async () => {
        await removed(await removeEntries(action, entry.chatHistoryUUID));
      });
    })();

  const regenerate = useRegenerate({ live, mute, canReply, busyRef, act, keyRef });

  return {
    isGroup,
    canReply,
    busy: pending > 0 || live.state.busy,
    editing,
    startEdit: (id, part) => setEditing({ id, part }),
    cancelEdit: () => setEditing(null),
    saveEdit,
    swipe,
    regenerate,
    remove: (entry) => removeAfterConfirm("delete", entry),
    rewind: (entry) => removeAfterConfirm("rewind", entry),
  };
}
