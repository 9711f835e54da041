// A picture inside a message bubble (product.md §2): the user's photo or the reply's picture, or a spinner while it is made.
import { useState } from "react";
import { Spinner } from "../../../components/Spinner";
import { imageTexts } from "../imageTexts";
import { PhotoGallery } from "./PhotoGallery";

/**
 * A picture inside a message bubble (product.md §2): the user's photo or the reply's picture, opening in
 * the gallery; while the reply's picture is still being made, a spinner (chatHistoryImageLoading 1).
 */
export function BubbleImage({ src, loading, alt }: { src: string; loading?: boolean; alt: string }) {
  const [open, setOpen] = useState(false);
  if (loading) {
    return (
      <div className="bubble__image-loading">
        <Spinner label={imageTexts.loadingPicture} />
      </div>
    );
  }
  if (!src) return null;
  return (
    <>
      <button
        type="button"
        className="bubble__image-button"
        aria-label={imageTexts.openPicture}
        onClick={() => setOpen(true)}
      >
        <img className="bubble__image" src={src} alt={alt} />
      </button>
      {open && <PhotoGallery photos={[src]} start={0} onClose={() => setOpen(false)} />}
    </>
  );
}
