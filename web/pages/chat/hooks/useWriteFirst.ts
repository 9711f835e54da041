// The chat's 'Let {name} write first' setting as the Settings popup edits it.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { getCheckins, setCheckins } from "../../../api/checkins";
import { warn } from "../../../lib/notify";
import { chatTexts } from "../texts";

/**
 * The server's check-in setting of one chat (GET /chat/checkins), the popup's unsaved choice
 * (`setChoice`; `on` shows it, else the stored state) and `save`, which sends a changed choice
 * with the browser's time zone (`setCheckins`) and keeps the answer in the query cache; a failure
 * shows 'writeFirstFailed' as a warning toast. `state` is undefined until loaded (or for no chat).
 */
export function useWriteFirst(chatId: string) {
  const queryClient = useQueryClient();
  const key = ["chat-checkins", chatId];
  const checkins = useQuery({ queryKey: key, queryFn: () => getCheckins(chatId), enabled: chatId !== "" });
  const [choice, setChoice] = useState<boolean | null>(null);
  const save = () => {
    if (checkins.data && choice !== null && choice !== checkins.data.enabled) {
      setCheckins(chatId, choice).then(
        (state) => queryClient.setQueryData(key, state ?? null),
        () => warn(chatTexts.writeFirstFailed),
      );
    }
  };
  return { state: checkins.data, on: choice ?? checkins.data?.enabled ?? false, setChoice, save };
}
