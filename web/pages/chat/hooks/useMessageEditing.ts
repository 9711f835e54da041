import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import type { ChatHistoryEntry } from "../../../../common/api";
import { RULES } from "../../../../common/validation";
import { editEntry, regenerateReplyStream, removeEntries, swipeReply } from "../../../api/edits";
import { ApiError, isHandledApiError } from "../../../api/errors";
import { ReplyLostError } from "../../../api/replies";
import { audioPlayer } from "../../../lib/audioPlayer";
import { AppSwal } from "../../../lib/dialogs";
import { warn } from "../../../lib/notify";
import { localCheck } from "../../../lib/validationText";
import { editTexts } from "../editTexts";
import { type HistoryPages, removeFromHistory, replaceInHistory } from "../historyEdits";
import type { LiveChat } from "./useChatSender";

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
  /** Chooses alternative `index` of the entry's reply (POST /chat/swipe). */
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

/** A failure's message for the user: the server's sentence for a refusal, else `fallback`. */
function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.kind === "envelope" ? error.message : fallback;
}

/**
 * Swipes, regenerate, edit, delete and rewind on the chat screen. Each answer is put
 * into both places the screen shows entries from: the cached history pages (useChatHistory's
 * query) and the live items of this screen (`entryReplaced`, `entriesRemoved`), so an entry sent
 * on this screen changes as well as one loaded from the history; a delete or rewind also refetches
 * the loaded pages (their offsets moved) and drops the cached photo list; an edit, delete or rewind
 * drops the cached memories (the server drew them again from what is left). Regenerate streams like Continue: the bubble empties and
 * fills with the new reply's tokens (`regenerateStarted`, `token`, `continueEnded`), no send
 * meanwhile. Refusals show the server's message as a warning toast; one that names a `page` (429
 * at the message limit names /pricing) opens it with the message as navigation state `notice`,
 * as a refused send does. Transport failures show this screen's own sentence.
 */
export function useMessageEditing(target: MessageEditingTarget, live: LiveChat): MessageEditing {
  const { userId, chatId, isGroup, mute, canReply } = target;
  const { state, dispatch } = live;
  const client = useQueryClient();
  const navigate = useNavigate();
  const [pending, setPending] = useState(0);
  const [editing, setEditing] = useState<MessageEditing["editing"]>(null);
  const closing = useRef<AbortController | null>(null);
  const busyRef = useRef(false);
  busyRef.current = pending > 0 || state.busy;

  useEffect(() => {
    const current = new AbortController();
    closing.current = current;
    return () => current.abort();
  }, []);

  const queryKey = ["chat-history", userId, chatId];
  const keyRef = useRef(queryKey);
  keyRef.current = queryKey;

  /** The server redrew the memory from what is left: the chat's facts are read again. */
  const forgetMemories = useCallback(
    () => client.removeQueries({ queryKey: ["chat-memories", chatId] }),
    [client, chatId],
  );

  const changed = useCallback(
    (entry: ChatHistoryEntry) => {
      client.setQueryData<HistoryPages>(keyRef.current, (data) => replaceInHistory(data, entry));
      dispatch({ type: "entryReplaced", entry });
    },
    [client, dispatch],
  );

  const removed = useCallback(
    async (ids: string[]) => {
      client.setQueryData<HistoryPages>(keyRef.current, (data) => removeFromHistory(data, ids));
      dispatch({ type: "entriesRemoved", ids });
      // Their pictures are gone from the photo list, and the memory was drawn again.
      client.removeQueries({ queryKey: ["chat-photos", userId, chatId] });
      forgetMemories();
      // The server's offsets moved by what was removed: the loaded pages again, or a later page skips entries.
      await client.invalidateQueries({ queryKey: keyRef.current });
    },
    [client, dispatch, forgetMemories, userId, chatId],
  );

  /** Runs one action with the controls off; failures are logged and shown with `fallback`. */
  const act = useCallback(async (name: string, fallback: string, work: () => Promise<void>) => {
    if (busyRef.current) return;
    busyRef.current = true;
    setPending((count) => count + 1);
    try {
      await work();
    } catch (error) {
      console.error(`chat/${name}`, error);
      if (!isHandledApiError(error)) warn(messageOf(error, fallback));
    } finally {
      setPending((count) => count - 1);
    }
  }, []);

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
        changed(await editEntry(entry.chatHistoryUUID, part, text.trim()));
        forgetMemories();
        setEditing(null);
        return null;
      } catch (error) {
        console.error("chat/edit", error);
        return isHandledApiError(error) ? null : messageOf(error, editTexts.editFailed);
      } finally {
        setPending((count) => count - 1);
      }
    },
    [changed, forgetMemories],
  );

  const confirm = async (title: string, text: string, confirmButtonText: string) =>
    (
      await AppSwal.fire({
        icon: "warning",
        titleText: title,
        text,
        showCancelButton: true,
        confirmButtonText,
        cancelButtonText: editTexts.cancel,
      })
    ).isConfirmed;

  const remove = (entry: ChatHistoryEntry) =>
    void (async () => {
      if (busyRef.current) return;
      if (!(await confirm(editTexts.deleteTitle, editTexts.deleteText, editTexts.deleteConfirm))) return;
      await act("delete", editTexts.deleteFailed, async () => {
        await removed(await removeEntries("delete", entry.chatHistoryUUID));
      });
    })();

  const rewind = (entry: ChatHistoryEntry) =>
    void (async () => {
      if (busyRef.current) return;
      if (!(await confirm(editTexts.rewindTitle, editTexts.rewindText, editTexts.rewindConfirm))) return;
      await act("rewind", editTexts.rewindFailed, async () => {
        await removed(await removeEntries("rewind", entry.chatHistoryUUID));
      });
    })();

  const regenerate = useCallback(
    (entry: ChatHistoryEntry) => {
      if (busyRef.current || !canReply) return;
      const key =
        live.state.items.find((item) => item.entry.chatHistoryUUID === entry.chatHistoryUUID)?.key ??
        entry.chatHistoryUUID;
      void act("regenerate", editTexts.regenerateFailed, async () => {
        dispatch({ type: "started" });
        dispatch({ type: "regenerateStarted", key, entry });
        let stored: ChatHistoryEntry | undefined;
        try {
          const reply = await regenerateReplyStream(
            entry.chatHistoryUUID,
            mute,
            {
              onToken: (text) => dispatch({ type: "token", key, text }),
              onAudio: (audio) => {
                if (!mute) audioPlayer.autoplay(audio.audioUrl, audio.index > 0, audio.chatHistoryUUID);
              },
            },
            closing.current?.signal,
          );
          stored = reply.success === 1 ? reply.history?.[0] : undefined;
          dispatch({ type: "continueEnded", key, ok: stored !== undefined, stored: stored ?? entry });
          if (stored !== undefined) {
            client.setQueryData<HistoryPages>(keyRef.current, (data) => replaceInHistory(data, stored!));
          } else if (reply.page) {
            const text = reply.message || editTexts.regenerateFailed;
            warn(text);
            void navigate(reply.page, { state: { notice: text } });
          } else {
            warn(reply.message || editTexts.regenerateFailed);
          }
        } catch (error) {
          // the new reply is stored and its stream lost: the history settles it.
          if (error instanceof ReplyLostError) {
            dispatch({ type: "lost", key });
            await client.invalidateQueries({ queryKey: keyRef.current });
            return;
          }
          dispatch({ type: "continueEnded", key, ok: false, stored: entry });
          throw error;
        } finally {
          dispatch({ type: "finished" });
        }
      });
    },
    [act, canReply, client, dispatch, live.state.items, mute, navigate],
  );

  return {
    isGroup,
    canReply,
    busy: pending > 0 || state.busy,
    editing,
    startEdit: (id, part) => setEditing({ id, part }),
    cancelEdit: () => setEditing(null),
    saveEdit,
    swipe,
    regenerate,
    remove,
    rewind,
  };
}
