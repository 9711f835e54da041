// Following a reply still being written (GET /chat/stream) after a reload or in another tab, polling when it cannot be followed.
import { type InfiniteData, type QueryKey, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { ChatHistoryEntry } from "../../../../common/api";
import { followReply } from "../../../api/chat";
import { isHandledApiError } from "../../../api/errors";
import { ReplyLostError } from "../../../api/replies";
import type { LiveChat } from "./useChatSender";

type HistoryData = InfiniteData<ChatHistoryEntry[], number>;

/** Whether the cached history `data` holds the entry `id`. */
const holds = (data: HistoryData | undefined, id: string) =>
  data?.pages.some((page) => page.some((entry) => entry.chatHistoryUUID === id)) ?? false;

/**
 * a reply still being written is followed live instead of polled. When the newest
 * history entry is "pending" and no item of this screen owns it (a reload, a second tab), its
 * reply is followed with GET /chat/stream (`followReply`): the tokens show in its bubble as in
 * the sending tab (`followStarted`, `token`), and its `done` puts the final entry in the history
 * cache (`followEnded`). One stream per entry, closed when the screen unmounts. A reply that
 * cannot be followed (its server is gone, the stream is unreachable), and a reply of this
 * screen whose stream was lost (item `lost`, after the history is refetched), go to `poll`:
 * the history then polls for that entry as before.
 */
export function useReplyFollow(
  queryKey: QueryKey,
  entries: ChatHistoryEntry[],
  live: LiveChat,
  poll: (entryId: string) => void,
): void {
  const client = useQueryClient();
  const { state, dispatch } = live;
  /** Entries followed (or handed to polling) on this screen: never followed twice. */
  const followed = useRef(new Set<string>());
  /** The open streams, aborted on unmount. */
  const streams = useRef(new Set<AbortController>());
  const keyRef = useRef(queryKey);
  keyRef.current = queryKey;

  useEffect(() => {
    const open = streams.current;
    const seen = followed.current;
    return () => {
      for (const controller of open) controller.abort();
      open.clear();
      // A remount (React's strict mode) may follow them again.
      seen.clear();
    };
  }, []);

  const newest = entries.at(-1);
  const pendingId = newest?.chatHistoryStatus === "pending" ? newest.chatHistoryUUID : "";
  const owned = state.items.some((item) => item.entry.chatHistoryUUID === pendingId);
  const start = pendingId !== "" && !state.busy && !owned ? newest : undefined;

  useEffect(() => {
    if (start === undefined || followed.current.has(start.chatHistoryUUID)) return;
    const id = start.chatHistoryUUID;
    followed.current.add(id);
    const controller = new AbortController();
    streams.current.add(controller);
    dispatch({ type: "followStarted", key: id, entry: start });
    const queryKey = keyRef.current;
    void followReply(id, (text) => dispatch({ type: "token", key: id, text }), controller.signal)
      .then(async (reply) => {
        const stored = reply.history?.[0];
        if (reply.success === 1 && stored !== undefined) {
          client.setQueryData<HistoryData>(queryKey, (data) =>
            data === undefined
              ? data
              : {
                  ...data,
                  pages: data.pages.map((page) =>
                    page.map((entry) => (entry.chatHistoryUUID === id ? stored : entry)),
                  ),
                },
          );
        } else {
          // The reply failed or was cut short: the history says how it was stored.
          await client.invalidateQueries({ queryKey });
        }
        return reply.success === 1;
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return null;
        // No live reply (its server is gone) or none reachable: the history polls for it.
        if (error instanceof ReplyLostError) {
          poll(id);
          return true;
        }
        if (!isHandledApiError(error)) console.error("chat/stream", error);
        return false;
      })
      .then((ok) => {
        streams.current.delete(controller);
        if (ok !== null && !controller.signal.aborted) dispatch({ type: "followEnded", key: id, ok });
      });
  }, [start, client, dispatch, poll]);

  // A reply of this screen whose stream was lost: the refetched history shows it (and polls).
  const lost = state.items.find((item) => item.lost && !followed.current.has(item.entry.chatHistoryUUID));
  useEffect(() => {
    if (lost === undefined) return;
    const id = lost.entry.chatHistoryUUID;
    followed.current.add(id);
    poll(id);
    const queryKey = keyRef.current;
    void client.invalidateQueries({ queryKey }).then(() => {
      const there = holds(client.getQueryData<HistoryData>(queryKey), id);
      dispatch(there ? { type: "settled", key: lost.key } : { type: "failed", key: lost.key });
    });
  }, [lost, client, dispatch, poll]);
}
