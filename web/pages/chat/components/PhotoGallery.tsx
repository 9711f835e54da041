// The photo gallery (product.md §2, §9): a modal with Previous/Next, zoom between 1 and 2, keyboard moves and Close.
import { useState } from "react";
import { IMAGE_VIEWER_MAX_SCALE, IMAGE_VIEWER_MIN_SCALE } from "../../../../common/constants";
import { useModalDialog } from "../hooks/useModalDialog";
import { imageTexts } from "../imageTexts";
import { ChatModal } from "./ChatModal";

const ZOOM_STEP = 0.5;

/**
 * The gallery of the Photo List and of reply pictures (product.md §2, 9): a modal with the photo,
 * Previous/Next, Zoom in/Zoom out between scale 1 and 2 (double-click toggles, the wheel zooms),
 * and Close; arrow keys move, Escape closes.
 */
export function PhotoGallery({
  photos,
  start,
  onClose,
}: {
  photos: string[];
  start: number;
  onClose: () => void;
}) {
  const dialog = useModalDialog();
  const [index, setIndex] = useState(start);
  const [scale, setScale] = useState(IMAGE_VIEWER_MIN_SCALE);
  const clamp = (value: number) => Math.min(IMAGE_VIEWER_MAX_SCALE, Math.max(IMAGE_VIEWER_MIN_SCALE, value));
  const go = (step: number) => {
    setIndex((value) => (value + step + photos.length) % photos.length);
    setScale(IMAGE_VIEWER_MIN_SCALE);
  };
  const src = photos[index] ?? "";
  const label = imageTexts.photoNumber(index + 1, photos.length);
  return (
    <ChatModal
      dialog={dialog}
      className="photo-gallery"
      label={imageTexts.gallery}
      onClose={onClose}
      onKeyDown={(event) => {
        if (event.key === "ArrowRight") go(1);
        if (event.key === "ArrowLeft") go(-1);
      }}
    >
      <div
        className="photo-gallery__frame"
        onWheel={(event) => setScale((value) => clamp(value + (event.deltaY < 0 ? ZOOM_STEP : -ZOOM_STEP)))}
      >
        <img
          src={src}
          alt={label}
          className="photo-gallery__image"
          style={{ transform: `scale(${scale})` }}
          data-scale={scale}
          onDoubleClick={() =>
            setScale((value) =>
              value > IMAGE_VIEWER_MIN_SCALE ? IMAGE_VIEWER_MIN_SCALE : IMAGE_VIEWER_MAX_SCALE,
            )
          }
        />
      </div>
      <p aria-live="polite">{label}</p>
      <div className="photo-gallery__controls">
        {photos.length > 1 && (
          <button type="button" className="button" onClick={() => go(-1)}>
            {imageTexts.previous}
          </button>
        )}
        <button
          type="button"
          className="button"
          disabled={scale <= IMAGE_VIEWER_MIN_SCALE}
          onClick={() => setScale((value) => clamp(value - ZOOM_STEP))}
        >
          {imageTexts.zoomOut}
        </button>
        <button
          type="button"
          className="button"
          disabled={scale >= IMAGE_VIEWER_MAX_SCALE}
          onClick={() => setScale((value) => clamp(value + ZOOM_STEP))}
        >
          {imageTexts.zoomIn}
        </button>
        {photos.length > 1 && (
          <button type="button" className="button" onClick={() => go(1)}>
            {imageTexts.next}
          </button>
        )}
        <button type="button" className="button button--primary" onClick={() => dialog.current?.close()}>
          {imageTexts.close}
        </button>
      </div>
    </ChatModal>
  );
}
