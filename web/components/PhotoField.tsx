// A picture chooser (.jpg, .jpeg, .png, product.md §5) with a round preview of the chosen or current photo.
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { warn } from "../lib/notify";
import { Avatar } from "./Avatar";
import { FileInput } from "./FileInput";

/** product.md §5: pictures accept .jpg, .jpeg and .png. */
export const PICTURE_ACCEPT = ".jpg,.jpeg,.png";
const PICTURE_NAME = /\.(jpe?g|png)$/i;

interface PhotoFieldProps {
  label: string;
  /** The picture shown while no file is chosen (the current photo, or the fallback). */
  currentSrc: string;
  file: File | undefined;
  onChange: (file: File | undefined) => void;
}

/**
 * A picture chooser (.jpg, .jpeg, .png) with a round preview of the chosen file, or of the
 * current picture while none is chosen, and a chooser in the app's language (FileInput). Another
 * file type is refused with a warning toast.
 */
export function PhotoField({ label, currentSrc, file, onChange }: PhotoFieldProps) {
  const { t } = useTranslation("common");
  const id = useId();
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);

  useEffect(() => {
    if (file === undefined) {
      setPreviewUrl(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreviewUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  return (
    <div className="field photo-field">
      <Avatar
        className="photo-field__preview"
        src={previewUrl ?? currentSrc}
        alt={t("photo.preview", { label })}
        size={96}
      />
      <div className="photo-field__picker">
        <label htmlFor={id}>{label}</label>
        <FileInput
          id={id}
          accept={PICTURE_ACCEPT}
          fileName={file?.name}
          onChange={(event) => {
            const chosen = event.target.files?.[0];
            if (chosen !== undefined && !PICTURE_NAME.test(chosen.name)) {
              warn(t("photo.wrongType"));
              event.target.value = "";
              onChange(undefined);
              return;
            }
            onChange(chosen);
          }}
        />
      </div>
    </div>
  );
}
