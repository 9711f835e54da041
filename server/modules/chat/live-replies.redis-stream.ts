// How a live reply's events are stored in a Redis Stream: the one-command append script and the reading of stream entries.
import type { Redis } from "ioredis";
import type { LiveEvent } from "./live-replies";

/**
 * One flush of a writer as one command (a Lua script, run atomically): the events appended to the
 * stream, its expiry set, the followers told. KEYS[1] the stream; ARGV: MAXLEN, expiry (ms), the
 * notification, then (id, event, data) per event. One command instead of one per event plus two:
 * each command costs the server a write, a reply to parse and a promise, a token batch's worth.
 */
const APPEND_SCRIPT = `
for i = 4, #ARGV, 3 do
  redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], ARGV[i], 'e', ARGV[i + 1], 'd', ARGV[i + 2])
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PUBLISH', KEYS[1], ARGV[3])
return 1`;

/** The command APPEND_SCRIPT is defined as on the client (EVALSHA, EVAL when Redis lacks the script). */
export type AppendCommand = (key: string, ...args: Array<string | number>) => Promise<unknown>;

/** The sequence id of a stream entry id "0-<seq>". */
export const seqOf = (id: string) => Number(id.slice(id.indexOf("-") + 1));

/** A stream entry's event: fields `e` (name) and `d` (JSON data). */
export function eventOf([id, fields]: [string, string[]]): LiveEvent {
  let event = "";
  let data: unknown = null;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === "e") event = fields[i + 1]!;
    else if (fields[i] === "d") data = JSON.parse(fields[i + 1]!);
  }
  return { seq: seqOf(id), event, data };
}

/**
 * Defines APPEND_SCRIPT on a command connection. @returns the command: appends (id, event, data)
 * triples to the stream `key`, sets its expiry and publishes the notification, atomically.
 */
export function defineAppend(client: Redis): AppendCommand {
  client.defineCommand("companionLiveAppend", { numberOfKeys: 1, lua: APPEND_SCRIPT });
  const defined = client as unknown as { companionLiveAppend: AppendCommand };
  return defined.companionLiveAppend.bind(client);
}
