// A file chooser in the page's language: a styled "Choose file" and the chosen file's name.
import { type ChangeEvent, useRef } from "react";
import { useTranslation } from "react-i18next";
import "./file-input.css";

interface FileInputProps {
  /** The input's id: the field's `<label htmlFor>` names it. */
  id: string;
  /** The types offered, as the input's `accept` (".jpg,.png", "image/png"). */
  accept: string;
  /** The chosen file's name; absent: "No file chosen". */
  fileName: string | undefined;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}

/**
 * The browser's own file input shows "Choose File / No file chosen" in the browser's language,
 * not the app's: this one keeps the native input (named by the field's label, reached by Tab, a
 * Space or Enter opens the picker) out of sight and shows a translated button and the chosen
 * file's name or "No file chosen" beside it. A press on the button opens the same picker.
 */
export function FileInput({ id, accept, fileName, onChange }: FileInputProps) {
  const { t } = useTranslation("common");
  const input = useRef<HTMLInputElement>(null);
  return (
    <div className="file-input">
      <input
        ref={input}
        id={id}
        type="file"
        accept={accept}
        className="sr-only file-input__native"
        onChange={onChange}
      />
      {/* The native input carries the role and the name; this is only what the eye and the pointer get. */}
      <span
        className="button button--ghost button--small file-input__button"
        aria-hidden="true"
        onClick={() => input.current?.click()}
      >
        {t("file.choose")}
      </span>
      <span className="file-input__name" aria-hidden="true">
        {fileName || t("file.none")}
      </span>
    </div>
  );
}
