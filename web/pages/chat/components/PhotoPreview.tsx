// The chosen or captured photo above the message box, with Remove (product.md §2, §4 "Photo flow").
import { useEffect, useState } from "react";
import { imageTexts } from "../imageTexts";

/** The chosen or captured photo above the message box, with Remove (product.md §2, 4 "Photo flow"). */
export function PhotoPreview({ photo, onRemove }: { photo: Blob; onRemove: () => void }) {
  const [url, setUrl] = useState("");
  useEffect(() => {
    const created = URL.createObjectURL(photo);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [photo]);
  return (
    <figure className="photo-preview" aria-label={imageTexts.photoPreview}>
      {url && <img src={url} alt={imageTexts.photoPreview} />}
      <button type="button" className="button button--small" onClick={onRemove}>
        {imageTexts.remove}
      </button>
    </figure>
  );
}
