// A round picture that falls back to the default user picture when it fails to load.
import { useState } from "react";
import { FALLBACK_PICTURE_URL } from "../lib/content";

interface AvatarProps {
  src: string;
  alt: string;
  /** Rendered width and height in pixels. */
  size?: number;
  title?: string;
  className?: string;
}

/** A round picture that falls back to `/content/user.jpg` when it fails to load (product.md §3). */
export function Avatar({ src, alt, size = 40, title, className }: AvatarProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const shown = failedSrc === src ? FALLBACK_PICTURE_URL : src;
  return (
    <img
      className={className ? `avatar ${className}` : "avatar"}
      src={shown}
      alt={alt}
      title={title}
      width={size}
      height={size}
      loading="lazy"
      onError={() => {
        if (shown !== FALLBACK_PICTURE_URL) setFailedSrc(src);
      }}
    />
  );
}
