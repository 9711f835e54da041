// "Import a SillyTavern chat" of the Settings popup: asks first as New Chat does, sends the file, shows the answer and opens the chat afresh.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { CHAT_IMPORT_MAX_BYTES } from "../../../../common/constants";
import { importChat } from "../../../api/chat";
import { ApiError, isHandledApiError } from "../../../api/errors";
import { AppSwal } from "../../../lib/dialogs";
import { succeed, warn } from "../../../lib/notify";
import { chatTexts } from "../texts";

/**
 * Asks before an import replaces the chat's history, in the popup New Chat asks with (a warning
 * with Cancel, product.md §2). @returns whether the user confirmed.
 */
export async function confirmImport(fileName: string): Promise<boolean> {
  const answer = await AppSwal.fire({
    icon: "warning",
    titleText: chatTexts.importConfirmTitle,
    text: chatTexts.importConfirmText(fileName),
    showCancelButton: true,
    confirmButtonText: chatTexts.importConfirm,
    cancelButtonText: chatTexts.cancel,
  });
  return answer.isConfirmed;
}

/**
 * The import of a SillyTavern chat file into a one-to-one chat (POST /chat/import). `start(file)`
 * refuses a file over CHAT_IMPORT_MAX_BYTES at once (the server refuses it too, but a browser may
 * see only a dropped connection), asks for confirmation (`confirmImport`), then sends it: on
 * success the server's sentence as a success toast, the chat's cached history, memories and
 * profile dropped and the chat opened afresh (as New Chat opens its `page`); a refusal shows the
 * server's sentence (e.g. "Line 7 is not valid JSON.") as a warning, a failed transport
 * 'importFailed'. Held by the chat screen, not the Settings popup: the popup closes before the
 * confirmation shows (so it is not behind the popup's modal layer), and the import outlives it.
 */
export function useChatImport(chatId: string) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const upload = useMutation({
    mutationFn: (file: File) => importChat(chatId, file),
    onSuccess: (answer) => {
      succeed(answer.message);
      client.removeQueries({ queryKey: ["chat-history"] });
      client.removeQueries({ queryKey: ["chat-memories"] });
      client.removeQueries({ queryKey: ["chat-profile"] });
      navigate(`/character-select/${chatId}`);
    },
    onError: (error) => {
      if (isHandledApiError(error)) return;
      warn(error instanceof ApiError && error.kind === "envelope" ? error.message : chatTexts.importFailed);
    },
    meta: { silent: true },
  });
  const start = async (file: File) => {
    if (file.size > CHAT_IMPORT_MAX_BYTES) {
      warn(chatTexts.importTooLarge(CHAT_IMPORT_MAX_BYTES / 1024 / 1024));
      return;
    }
    if (await confirmImport(file.name)) upload.mutate(file);
  };
  return { start, isPending: upload.isPending };
}
