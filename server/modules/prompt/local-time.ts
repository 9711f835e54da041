// The user's local time as the prompt tells it, from the time a client sends with a message.

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d{1,9})?)?([+-])(\d{2}):?(\d{2})$/;
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
/** A client's clock may be this far off the server's before its `time` is ignored, milliseconds. */
const LOCAL_TIME_SKEW_MS = 26 * 60 * 60 * 1000;

/**
 * The user's local time for the system prompt, from `chat/message`'s `time` (product.md §7; ours: ISO
 * 8601 with the sender's UTC offset, e.g. "2026-11-26T22:41:07.000+01:00").
 * @returns e.g. "Thursday, 22:41"; undefined when `time` is missing, malformed, carries no
 * offset (a "Z" time tells nothing about the user's day), or lies over 26 h from `now` (epoch ms).
 */
export function localTimeText(time: string | undefined, now: number): string | undefined {
  const match = time ? LOCAL_TIME.exec(time) : null;
  if (!match) return undefined;
  const [, y, mo, d, h, mi, sign, oh, om] = match as unknown as string[];
  const [year, month, day, hour, minute] = [y, mo, d, h, mi].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetMinutes = (sign === "-" ? -1 : 1) * (Number(oh) * 60 + Number(om));
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > 31 ||
    hour > 23 ||
    minute > 59 ||
    Math.abs(offsetMinutes) > 14 * 60
  )
    return undefined;
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  if (Math.abs(wall - offsetMinutes * 60_000 - now) > LOCAL_TIME_SKEW_MS) return undefined;
  const weekday = WEEKDAYS[new Date(wall).getUTCDay()];
  return `${weekday}, ${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
}
