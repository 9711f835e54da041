import { splitEmphasis } from "../../../lib/text";

/**
 * A chat message as text nodes: parts between single asterisks in <em> (product.md §2), the rest as
 * plain text. Never rendered as HTML.
 */
export function EmphasisText({ text }: { text: string }) {
  return (
    <>
      {splitEmphasis(text).map((segment, index) =>
        segment.emphasis ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments of one immutable string
          <em key={index}>{segment.text}</em>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments of one immutable string
          <span key={index}>{segment.text}</span>
        ),
      )}
    </>
  );
}
