// Whether this is an Apple device, which hides the chat camera and plays audio natively (product.md §2).
/**
 * Apple devices (iPhone, iPad, iPod, Mac; iPadOS reports itself as a Mac with touch). The spec
 * hides the chat camera there (product.md §2) and plays audio with the native control.
 */
export function isAppleDevice(): boolean {
  if (typeof navigator === "undefined") return false;
  return /iPhone|iPad|iPod|Macintosh|Mac OS X/i.test(navigator.userAgent);
}
