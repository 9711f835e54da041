// Actions that change which chat is shown (product.md §4 "New chat", "Group chat"): new chat, start group, add or remove members.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { isOutageCode } from "../../../../common/errors";
import { startNewChat } from "../../../api/chat";
import { ApiError } from "../../../api/errors";
import { changeGroupMember, startGroup } from "../../../api/groups";
import { warn } from "../../../lib/notify";
import { isInAppPath } from "../../../lib/text";

/**
 * True for a member change the server refused with a reason the user can act on (an envelope
 * answered with a 4xx status, e.g. 403 'A group chat holds at most 4 members.', or a 503 outage
 * whose sentence says to try again in a few seconds). Transport failures (no answer, not JSON)
 * and other server errors (5xx) are not refusals: they are only logged.
 */
export function isActionableRefusal(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.kind === "envelope" &&
    (error.status === undefined || (error.status >= 400 && error.status < 500) || isOutageCode(error.code))
  );
}

export interface ChatRoomActions {
  /** GET /chat/new: deletes this chat's history, then opens the answer's `page`. */
  newChat: () => void;
  /** GET /chat/group/new with the current character, then opens the new group's `page`. */
  startGroup: (characterId: string) => void;
  /**
   * GET /chat/group/member/add; a refusal (e.g. a 5th member, 403) shows the server message as a
   * warning, a transport failure is only logged.
   */
  addMember: (characterId: string) => void;
  /** GET /chat/group/member/remove, then opens the answer's `page`. */
  removeMember: (characterId: string) => void;
  isPending: boolean;
}

/**
 * The actions of the chat screen that change which chat is shown (product.md §4 "New chat", "Group
 * chat"). Each answers a `page` (/character-select/<id>); the cached profile and history are
 * dropped first so the chat opened there is loaded fresh. New chat and group creation failures
 * are only logged (product.md §8). Member changes are logged too, but a refusal the user can act on
 * (`isActionableRefusal`: the group is full, the character is gone) also shows the server message
 * as a warning toast, a deliberate difference from product.md §8's "logged only" (README "How the chat
 * works"); transport failures and server errors stay silent.
 */
export function useChatRoomActions(userId: string, chatId: string, groupId: string): ChatRoomActions {
  const navigate = useNavigate();
  const client = useQueryClient();
  const open = (page: string) => {
    client.removeQueries({ queryKey: ["chat-history"] });
    client.removeQueries({ queryKey: ["chat-profile"] });
    client.removeQueries({ queryKey: ["chat-memories"] });
    if (isInAppPath(page)) navigate(page);
  };
  const reset = useMutation({
    mutationFn: () => startNewChat(chatId, userId),
    onSuccess: open,
    meta: { silent: true },
  });
  const group = useMutation({ mutationFn: startGroup, onSuccess: open, meta: { silent: true } });
  const member = useMutation({
    mutationFn: (input: { action: "add" | "remove"; characterId: string }) =>
      changeGroupMember(input.action, groupId, input.characterId),
    onSuccess: open,
    onError: (error) => {
      if (isActionableRefusal(error)) warn(error.message);
    },
    meta: { silent: true },
  });
  return {
    newChat: () => reset.mutate(),
    startGroup: (characterId) => group.mutate(characterId),
    addMember: (characterId) => member.mutate({ action: "add", characterId }),
    removeMember: (characterId) => member.mutate({ action: "remove", characterId }),
    isPending: reset.isPending || group.isPending || member.isPending,
  };
}
