// Texts of pictures and photos on the chat screen (product.md §2, §8), from the "chat" catalogue's `images` section.
import i18n, { lookups } from "../../i18n";

/**
 * The texts of pictures and photos on the chat screen, looked up in the "chat"
 * catalogue (section `images`) each time they are read. product.md §2 and 8 wording (in
 * English) where the spec quotes it.
 */
export const imageTexts = lookups(
  "chat",
  "images.",
  [
    "requestMenu",
    "attach",
    "camera",
    "sendPortrait",
    "sendLandscape",
    "sendPhotoOf",
    "captions",
    "picturesOff",
    "failedToSendPhoto",
    "photoUploadFailed",
    "failedToCapture",
    "failedToRequest",
    "cameraWindow",
    "capture",
    "rotateCamera",
    "closeCamera",
    "photoPreview",
    "remove",
    "yourPhoto",
    "picture",
    "loadingPicture",
    "openPicture",
    "photoList",
    "closePhotoList",
    "loadingPhotos",
    "noPhotos",
    "gallery",
    "previous",
    "next",
    "zoomIn",
    "zoomOut",
    "close",
  ] as const,
  {
    openPhoto: (index: number) => i18n.t("chat:images.openPhoto", { index }),
    photoNumber: (index: number, count: number) => i18n.t("chat:images.photoNumber", { index, total: count }),
  },
);
