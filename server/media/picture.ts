// Uploaded pictures made safe: JPEG or PNG only, bounded size checked before decoding, re-encoded and scaled (sharp loaded on first use).
import type { Metadata } from "sharp";
import { AppError, badRequest } from "../errors";
import { msg } from "../i18n/messages";
import { lazyModule } from "../lazy-module";

const loadSharpModule = lazyModule<typeof import("sharp").default>("sharp");

/**
 * sharp (libvips), loaded on the first picture rather than at startup, with libvips'
 * operation cache off: each picture is decoded once, and the cache (up to 50 MB by default) stays
 * resident for nothing.
 */
export function loadSharp(): typeof import("sharp").default {
  if (!sharp) {
    sharp = loadSharpModule();
    sharp.cache(false);
  }
  return sharp;
}
let sharp: typeof import("sharp").default | undefined;

/** Longest side of a stored picture, pixels. */
export const MAX_PICTURE_SIDE = 1024;
/** Largest image we agree to decode, in pixels (width × height): 40 megapixels. */
export const MAX_INPUT_PIXELS = 40_000_000;

const isJpeg = (b: Buffer) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
const isPng = (b: Buffer) =>
  b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

/**
 * Checks and re-encodes an uploaded picture: only JPEG or PNG, recognised from the bytes
 * (never the name or the declared type); dimensions read from the header and refused above
 * 40 megapixels before any decoding (decompression bombs); then decoded, turned upright,
 * bounded to 1024 px on the longest side and written as a fresh JPEG, which drops all metadata
 * (EXIF, GPS).
 * @returns JPEG bytes.
 * @throws AppError 400 "bad_image" for anything else, 413 "image_too_large" for too many pixels.
 */
export async function normalisePicture(bytes: Buffer): Promise<Buffer> {
  if (!isJpeg(bytes) && !isPng(bytes)) throw badRequest(msg("server.photoOnlyJpegPngImages"), "bad_image");
  let meta: Metadata;
  try {
    meta = await loadSharp()(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest(msg("server.photoImageCouldNotRead"), "bad_image");
  }
  if (meta.format !== "jpeg" && meta.format !== "png") {
    throw badRequest(msg("server.photoOnlyJpegPngImages"), "bad_image");
  }
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (!pixels) throw badRequest(msg("server.photoImageCouldNotRead"), "bad_image");
  if (pixels > MAX_INPUT_PIXELS) {
    throw new AppError("image_too_large", msg("server.photoImageTooLargeMost"));
  }
  try {
    return await loadSharp()(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize({ width: MAX_PICTURE_SIDE, height: MAX_PICTURE_SIDE, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer();
  } catch {
    throw badRequest(msg("server.photoImageCouldNotRead"), "bad_image");
  }
}
