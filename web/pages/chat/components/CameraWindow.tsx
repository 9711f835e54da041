// The camera window (product.md §2, §9): front or back camera, Rotate, Capture as JPEG, Close, and the capture failure message.
import { useEffect, useRef, useState } from "react";
import { CAMERA_HEIGHT, CAMERA_WIDTH } from "../../../../common/constants";
import { warn } from "../../../lib/notify";
import { useModalDialog } from "../hooks/useModalDialog";
import { imageTexts } from "../imageTexts";
import { ChatModal } from "./ChatModal";

interface CameraWindowProps {
  onCapture: (photo: File) => void;
  onClose: () => void;
}

/**
 * The camera window (product.md §2, 9): asks for 1280x720 from the front camera ('user') first; Rotate
 * switches to 'environment' and back; Capture takes a JPEG of the current frame; Close ends the
 * stream. A camera that cannot start or a failed capture shows 'Failed to capture photo.' (product.md §8).
 */
export function CameraWindow({ onCapture, onClose }: CameraWindowProps) {
  const dialog = useModalDialog();
  const video = useRef<HTMLVideoElement>(null);
  const [facing, setFacing] = useState<"user" | "environment">("user");
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let stream: MediaStream | undefined;
    let cancelled = false;
    setReady(false);
    navigator.mediaDevices
      .getUserMedia({
        video: { width: { ideal: CAMERA_WIDTH }, height: { ideal: CAMERA_HEIGHT }, facingMode: facing },
        audio: false,
      })
      .then(async (media) => {
        if (cancelled) {
          for (const track of media.getTracks()) track.stop();
          return;
        }
        stream = media;
        const element = video.current;
        if (!element) return;
        element.srcObject = media;
        await element.play();
        setReady(true);
      })
      .catch((error: unknown) => {
        console.error("camera", error);
        if (!cancelled) warn(imageTexts.failedToCapture);
      });
    return () => {
      cancelled = true;
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [facing]);

  const capture = () => {
    const element = video.current;
    if (!element?.videoWidth) {
      warn(imageTexts.failedToCapture);
      return;
    }
    const canvas = document.createElement("canvas");
    canvas.width = element.videoWidth;
    canvas.height = element.videoHeight;
    const context = canvas.getContext("2d");
    if (!context) {
      warn(imageTexts.failedToCapture);
      return;
    }
    context.drawImage(element, 0, 0);
    canvas.toBlob(
      (blob) => {
        if (!blob) {
          warn(imageTexts.failedToCapture);
          return;
        }
        onCapture(new File([blob], "camera.jpg", { type: "image/jpeg" }));
        dialog.current?.close();
      },
      "image/jpeg",
      0.9,
    );
  };

  return (
    <ChatModal dialog={dialog} className="camera-window" label={imageTexts.cameraWindow} onClose={onClose}>
      <video ref={video} playsInline muted />
      <div className="camera-window__controls">
        <button type="button" className="button button--primary" onClick={capture} disabled={!ready}>
          {imageTexts.capture}
        </button>
        <button
          type="button"
          className="button"
          onClick={() => setFacing((value) => (value === "user" ? "environment" : "user"))}
        >
          {imageTexts.rotateCamera}
        </button>
        <button type="button" className="button" onClick={() => dialog.current?.close()}>
          {imageTexts.closeCamera}
        </button>
      </div>
    </ChatModal>
  );
}
