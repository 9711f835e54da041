/**
 * The texts of pictures and photos on the chat screen (issue 8), kept beside texts.ts so that
 * file stays small for the others editing it. spec 2 and 8 wording where the spec quotes it.
 */
export const imageTexts = {
  requestMenu: "Photos",
  attach: "Attach",
  camera: "Camera",
  sendPortrait: "Send a portrait photo",
  sendLandscape: "Send a landscape photo",
  sendPhotoOf: "Send a photo of..",
  captions: "Ideas",
  // issue 16: picture requests shown disabled when this server has no image engine.
  picturesOff: "Pictures on request are not available on this server.",
  // spec 8 "Photo upload failure" / "Photo capture failure"
  failedToSendPhoto: "Failed to send photo.",
  photoUploadFailed: "Photo upload failed. Please check and try again.",
  failedToCapture: "Failed to capture photo.",
  failedToRequest: "Failed to reply.",
  // Camera window (spec 2)
  cameraWindow: "Camera",
  capture: "Capture",
  rotateCamera: "Rotate camera",
  closeCamera: "Close camera",
  // Photo preview (spec 2)
  photoPreview: "Photo to send",
  remove: "Remove",
  // Message list (spec 2)
  yourPhoto: "Your photo",
  picture: "Picture",
  loadingPicture: "Loading picture",
  openPicture: "Open picture",
  // Photo List (spec 2)
  photoList: "Photo List",
  closePhotoList: "Close photo list",
  loadingPhotos: "Loading photos",
  noPhotos: "No photos yet.",
  openPhoto: (index: number) => `Open photo ${index}`,
  gallery: "Photo gallery",
  photoNumber: (index: number, count: number) => `Photo ${index} of ${count}`,
  previous: "Previous photo",
  next: "Next photo",
  zoomIn: "Zoom in",
  zoomOut: "Zoom out",
  close: "Close",
} as const;
