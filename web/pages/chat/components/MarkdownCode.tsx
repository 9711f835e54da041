// A fenced code block of a message, with a button that copies its code.
import { type ComponentProps, useEffect, useRef, useState } from "react";
import type { ExtraProps } from "react-markdown";
import { lookups } from "../../../i18n";

/** The code block's texts, in the "chat" catalogue (`web/locales/<lng>/chat.json`, section `markdown`). */
const markdownTexts = lookups("chat", "markdown.", ["copyCode", "copied"], {});

/** How long the button says "Copied" after a copy, in milliseconds. */
const COPIED_MS = 2000;

/** Puts `text` on the clipboard: the Clipboard API, else a selection and the copy command (plain http). */
async function copyText(text: string, element: HTMLElement): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const selection = window.getSelection();
  const range = document.createRange();
  range.selectNodeContents(element);
  selection?.removeAllRanges();
  selection?.addRange(range);
  const copied = document.execCommand("copy");
  selection?.removeAllRanges();
  if (!copied) throw new Error("copy refused");
}

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
    copyText(element.textContent ?? "", element).then(
      () => setCopied(true),
      (error: unknown) => console.error("copy code", error),
    );
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
