// Carrying out a chat action's `FailureAction`: the toast, the plan page or the chat banner.
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useNavigate } from "react-router";
import { CAPABILITIES_QUERY_KEY, type FailureAction } from "../../../api/failureAction";
import { warn } from "../../../lib/notify";

/**
 * The chat screen's answer to a refused or failed action (product.md §8), decided by
 * `failureAction`: `plan` shows the message as a warning toast and opens the page with it as
 * navigation state `notice`, as a refused send does; `signIn` stays quiet (the API client already
 * went to sign-in); `modelMissing` shows the message and refreshes the chat banner; `wait` and
 * `show` show the message as a warning toast.
 */
export function useFailureResponse(): (action: FailureAction) => void {
  const navigate = useNavigate();
  const client = useQueryClient();
  return useCallback(
    (action: FailureAction) => {
      if (action.kind === "signIn") return;
      warn(action.message);
      if (action.kind === "plan") void navigate(action.page, { state: { notice: action.message } });
      if (action.kind === "modelMissing") void client.invalidateQueries({ queryKey: CAPABILITIES_QUERY_KEY });
    },
    [client, navigate],
  );
}
