import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { changeGroupMember, startGroup, startNewChat } from "../../../api/chat";
import { isInAppPath } from "../../../lib/text";

export interface ChatRoomActions {
  /** GET /chat/new: deletes this chat's history, then opens the answer's `page`. */
  newChat: () => void;
  /** GET /chat/group/new with the current character, then opens the new group's `page`. */
  startGroup: (characterId: string) => void;
  /** GET /chat/group/member/add; a refusal (e.g. a 5th member, 403) shows the server message. */
  addMember: (characterId: string) => void;
  /** GET /chat/group/member/remove, then opens the answer's `page`. */
  removeMember: (characterId: string) => void;
  isPending: boolean;
}

/**
 * The actions of the chat screen that change which chat is shown (spec 4 "New chat", "Group
 * chat"). Each answers a `page` (/character-select/<id>); the cached profile and history are
 * dropped first so the chat opened there is loaded fresh. New chat and group creation failures
 * are only logged (spec 8); member changes show the server message as a warning toast.
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
  });
  return {
    newChat: () => reset.mutate(),
    startGroup: (characterId) => group.mutate(characterId),
    addMember: (characterId) => member.mutate({ action: "add", characterId }),
    removeMember: (characterId) => member.mutate({ action: "remove", characterId }),
    isPending: reset.isPending || group.isPending || member.isPending,
  };
}
