// A link or secret offered for copying: shown as selectable text, with a copy button that works over plain http too.
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { copyText, selectText } from "../lib/clipboard";
import "./copyable-text.css";

/** How long "Copied" shows after a copy, in milliseconds. */
const COPIED_MS = 3000;

interface CopyableTextProps {
  /** The text offered: an invitation link, a generated password. */
  value: string;
  /** What the text is ("Invitation link for ana@example.com"): names the field for screen readers. */
  label: string;
  /** The button's text ("Copy link"); "Copy" when left out. */
  copyLabel?: string;
}

/**
 * `value` in a read-only field that selects all of it on focus or click, and a button that copies
 * it (`copyText`: the Clipboard API, else the copy command, which also works over plain http from
 * another machine). After a copy the status says "Copied"; when both ways fail, the text is left
 * selected and the status says to copy it by hand. Never throws.
 */
export function CopyableText({ value, label, copyLabel }: CopyableTextProps) {
  const { t } = useTranslation("common");
  const field = useRef<HTMLInputElement>(null);
  const statusId = useId();
  /** The last copy's outcome and the text it was for (another text shows no outcome). */
  const [last, setLast] = useState<{ of: string; outcome: "none" | "copied" | "manual" }>({
    of: value,
    outcome: "none",
  });
  const outcome = last.of === value ? last.outcome : "none";
  useEffect(() => {
    if (outcome !== "copied") return;
    const timer = window.setTimeout(() => setLast({ of: value, outcome: "none" }), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [outcome, value]);

  const copy = () => {
    void copyText(value, field.current).then((copied) => {
      if (!copied && field.current !== null) selectText(field.current);
      setLast({ of: value, outcome: copied ? "copied" : "manual" });
    });
  };
  const select = () => {
    if (field.current !== null) selectText(field.current);
  };
  return (
    <span className="copyable">
      <span className="copyable__row">
        <input
          ref={field}
          className="copyable__text"
          type="text"
          readOnly
          value={value}
          aria-label={label}
          aria-describedby={statusId}
          spellCheck={false}
          autoComplete="off"
          onFocus={select}
          onClick={select}
        />
        <button type="button" className="button button--ghost copyable__button" onClick={copy}>
          {copyLabel ?? t("copy.copy")}
        </button>
      </span>
      <span id={statusId} className={`copyable__status copyable__status--${outcome}`} role="status">
        {outcome === "copied" ? t("copy.copied") : outcome === "manual" ? t("copy.manual") : ""}
      </span>
    </span>
  );
}
