// The hidden repeat feature (product.md §5): '.. N.' in a message sends it N times, at most 5.
/** product.md §5: the hidden repeat feature sends a message at most this many times (issue cap). */
export const MAX_REPEAT = 5;

/**
 * product.md §5: a message containing '.. N.' (N a number) is sent N times with the marker removed.
 * N is capped at 5; N below 1 sends once. Returns the text to send and how often.
 */
export function parseRepeat(message: string): { text: string; count: number } {
  const match = /\.\.\s*(\d+)\./.exec(message);
  if (match === null) return { text: message.trim(), count: 1 };
  const count = Math.min(Math.max(Number(match[1]), 1), MAX_REPEAT);
  const text = (message.slice(0, match.index) + message.slice(match.index + match[0].length))
    .replace(/\s{2,}/g, " ")
    .trim();
  return { text, count };
}
