// The chat's 'Recall earlier messages' switch as the Settings popup edits it, and the popup's settings kept on the server.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { getRecall, setRecall } from "../../../api/recall";
import { warn } from "../../../lib/notify";
import { chatTexts } from "../texts";
import { useWriteFirst } from "./useWriteFirst";

/**
 * The server's recall setting of one chat (GET /chat/recall), the popup's unsaved choice
 * (`setChoice`; `on` shows it, else the stored state, on by default) and `save`, which sends a
 * changed choice (POST /chat/recall) and keeps the answer in the query cache; a failure shows
 * 'recallFailed' as a warning toast. `state` is undefined until loaded and null when the server
 * has no setting for the chat (no switch is shown then).
 */
export function useChatRecall(chatId: string) {
  const queryClient = useQueryClient();
  const key = ["chat-recall", chatId];
  const recall = useQuery({
    queryKey: key,
    queryFn: () => getRecall(chatId),
    enabled: chatId !== "",
    meta: { silent: true },
  });
  const [choice, setChoice] = useState<boolean | null>(null);
  const save = () => {
    if (recall.data && choice !== null && choice !== recall.data.enabled) {
      setRecall(chatId, choice).then(
        (state) => queryClient.setQueryData(key, state),
        () => warn(chatTexts.recallFailed),
      );
    }
  };
  return { state: recall.data, on: choice ?? recall.data?.enabled ?? true, setChoice, save };
}

/**
 * The Settings popup's settings kept on the server for one chat: 'Let {name} write first'
 * (useWriteFirst) and 'Recall earlier messages' (useChatRecall); `save` sends each changed one.
 */
export function useChatServerSettings(chatId: string) {
  const writeFirst = useWriteFirst(chatId);
  const recall = useChatRecall(chatId);
  const save = () => {
    writeFirst.save();
    recall.save();
  };
  return { writeFirst, recall, save };
}
