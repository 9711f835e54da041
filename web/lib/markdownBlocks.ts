// Splits a message's Markdown into blocks that render on their own, so a streamed reply re-parses only its last block.

/** An opening or closing code fence: up to three spaces, then three or more backticks or tildes (CommonMark 4.5). */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const BLANK = /^[ \t]*$/;
/** A line that cannot start a block of its own after a blank line: indented (a list item's continuation or indented code). */
const INDENTED = /^(?: {2,}|\t)/;

/**
 * `text` as Markdown blocks: runs of lines separated by blank lines, where a fenced code block (with
 * any blank lines inside it, and an unclosed one running to the end of the text) stays one block, and
 * an indented run after a blank line stays with the block before it (a list item's second paragraph,
 * indented code). Each block parses alone the way it parses inside the whole text (lists with blank
 * lines between items become one list per item, shown the same). Line endings are normalised to
 * "\n"; blank lines between blocks are dropped.
 * @returns the blocks in order, each without leading or trailing blank lines; [] for blank text.
 */
export function splitMarkdownBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  /** The fence that opened the code block we are in ("```" or "~~~~"...), or "" outside one. */
  let fence = "";
  let blankBefore = false;
  const flush = () => {
    if (current.length > 0) blocks.push(current.join("\n"));
    current = [];
  };
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    if (fence !== "") {
      current.push(line);
      const closing = FENCE.exec(line);
      if (closing?.[1]?.[0] === fence[0] && (closing?.[1]?.length ?? 0) >= fence.length) {
        if (BLANK.test(line.slice(closing?.[0].length))) fence = "";
      }
      continue;
    }
    if (BLANK.test(line)) {
      blankBefore = current.length > 0 || blocks.length > 0;
      flush();
      continue;
    }
    if (blankBefore && current.length === 0 && INDENTED.test(line) && blocks.length > 0) {
      current = [blocks.pop() as string, ""];
    }
    blankBefore = false;
    const opening = FENCE.exec(line);
    if (
      opening?.[1] !== undefined &&
      !(opening[1][0] === "`" && line.slice(opening[0].length).includes("`"))
    ) {
      fence = opening[1];
    }
    current.push(line);
  }
  flush();
  return blocks;
}
