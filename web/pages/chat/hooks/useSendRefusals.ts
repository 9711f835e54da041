// How a chat send that did not get its reply ends: 'Failed', or the page a quota refusal opens.
import { useQueryClient } from "@tanstack/react-query";
import { type Dispatch, useCallback, useRef } from "react";
import { useNavigate } from "react-router";
import type { ChatHistoryEntry, Envelope } from "../../../../common/api";
import { failureOf } from "../../../api/client";
import { CAPABILITIES_QUERY_KEY, failureAction } from "../../../api/failureAction";
import { warn } from "../../../lib/notify";
import type { LiveChatAction } from "../liveChat";
import { chatTexts } from "../texts";

/** The endings of a send that `useChatSender` and its reply paths share. */
export interface SendRefusals {
  /** Marks item `key` 'Failed', with `message` as a warning toast (none when null). */
  fail: (key: string, message: string | null, stored?: ChatHistoryEntry) => void;
  /** Acts on a refusal's error code; true when the send was settled so (see `useSendRefusals`). */
  refused: (key: string, reply: Envelope, stored?: ChatHistoryEntry) => boolean;
  /** True once a refusal's page is being opened: repeats ('.. N.') stop there. */
  isLeaving: () => boolean;
}

/**
 * The endings of a refused or failed send (product.md §8): `fail` marks it 'Failed' with the
 * message as a warning toast; `refused` decides from the refusal's error code (`failureAction`).
 */
export function useSendRefusals(dispatch: Dispatch<LiveChatAction>): SendRefusals {
  const navigate = useNavigate();
  const client = useQueryClient();
  const leaving = useRef(false);

  const fail = useCallback(
    (key: string, message: string | null, stored?: ChatHistoryEntry) => {
      if (message !== null) warn(message || chatTexts.failedToSend);
      dispatch({ type: "failed", key, stored });
    },
    [dispatch],
  );

  /**
   * Follows the page a refusal names: the message as a warning toast, the item not
   * 'Failed', then `page` opens with the message as navigation state `notice`.
   */
  const follow = useCallback(
    (key: string, message: string, page: string, stored?: ChatHistoryEntry) => {
      const text = message || chatTexts.failedToSend;
      warn(text);
      dispatch({ type: "refused", key, stored });
      leaving.current = true;
      void navigate(page, { state: { notice: text } });
    },
    [dispatch, navigate],
  );

  /**
   * A refused send (success 0), decided from its error code (`failureAction`): at the message
   * quota the plan page opens (`follow`); a missing model refreshes the chat banner and the
   * send fails as any refusal. True when the send was settled here.
   */
  const refused = useCallback(
    (key: string, reply: Envelope, stored?: ChatHistoryEntry): boolean => {
      const action = failureAction(failureOf(reply), chatTexts.failedToSend);
      if (action.kind === "plan") {
        follow(key, reply.message, action.page, stored);
        return true;
      }
      if (action.kind === "modelMissing") void client.invalidateQueries({ queryKey: CAPABILITIES_QUERY_KEY });
      return false;
    },
    [client, follow],
  );

  const isLeaving = useCallback(() => leaving.current, []);

  return { fail, refused, isLeaving };
}
