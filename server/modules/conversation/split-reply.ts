// Splitting a long reply into several messages at sentence boundaries (product.md §4 "Split replies").
/** A reply longer than this many characters is sent as several messages (product.md §4 "Split replies"). */
export const SPLIT_THRESHOLD = 180;
/** Most messages a reply is split into; the rest stays in the last one. */
export const MAX_SPLIT_PARTS = 4;

const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });

/**
 * A line that starts a Markdown block the chat shows formatted (a code fence, a list item, a
 * heading, a quote, a table row): a reply with one stays one message, since joining its sentences
 * with spaces would undo the formatting.
 */
const MARKDOWN_BLOCK = /^ {0,3}(?:```|~~~|[-*+] |\d{1,9}[.)] |#{1,6} |>|\|)/m;

/**
 * Splits a long reply at sentence boundaries into messages of about SPLIT_THRESHOLD characters,
 * shown one after another 1 s apart by the client (product.md §4, 9). Sentences are never cut; a short
 * reply, or one with Markdown blocks (lists, code, headings, quotes, tables), stays one message.
 * Text between asterisks stays within its sentence.
 * @returns the messages, at least one (empty input gives []).
 */
export function splitReply(text: string, threshold = SPLIT_THRESHOLD, maxParts = MAX_SPLIT_PARTS): string[] {
  const trimmed = text.trim();
  if (!trimmed) return [];
  if (trimmed.length <= threshold || MARKDOWN_BLOCK.test(trimmed)) return [trimmed];
  const sentences = [...segmenter.segment(trimmed)].map((s) => s.segment.trim()).filter(Boolean);
  const parts: string[] = [];
  let current = "";
  for (const sentence of sentences) {
    const joined = current ? `${current} ${sentence}` : sentence;
    if (current && joined.length > threshold && parts.length < maxParts - 1) {
      parts.push(current);
      current = sentence;
    } else {
      current = joined;
    }
  }
  if (current) parts.push(current);
  return parts;
}
