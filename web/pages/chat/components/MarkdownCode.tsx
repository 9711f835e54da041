// A fenced code block of a message, with a button that copies its code.
import { type ComponentProps, useEffect, useRef, useState } from "react";
import type { ExtraProps } from "react-markdown";
import { lookups } from "../../../i18n";
import { copyText } from "../../../lib/clipboard";

/** The code block's texts, in the "chat" catalogue (`web/locales/<lng>/chat.json`, section `markdown`). */
const markdownTexts = lookups("chat", "markdown.", ["copyCode", "copied"], {});

/** How long the button says "Copied" after a copy, in milliseconds. */
const COPIED_MS = 2000;

/**
 * A message's `pre` (react-markdown's component for a fenced or indented code block): the block
 * and a "Copy code" button that says "Copied" for two seconds after copying the block's text.
 */
export function MarkdownCode({ children }: ComponentProps<"pre"> & ExtraProps) {
  const pre = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = () => {
    const element = pre.current;
    if (element === null) return;
    // Left selected when it could not be copied, for the reader's own Ctrl+C.
    void copyText(element.textContent ?? "", element).then((done) => {
      if (done) setCopied(true);
    });
  };
  return (
    <div className="markdown__code">
      <pre ref={pre}>{children}</pre>
      <button type="button" className="markdown__copy" onClick={copy} aria-live="polite">
        {copied ? markdownTexts.copied : markdownTexts.copyCode}
      </button>
    </div>
  );
}
