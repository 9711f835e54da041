// Reading and writing a PNG's tEXt chunks, where character cards keep their JSON (checked signature, lengths, CRCs).
import { crc32 } from "node:zlib";
import { badRequest } from "../../errors";
import { msg } from "../../i18n/messages";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Largest metadata chunk we read from a card, bytes ("a metadata chunk over a few MB"). */
export const MAX_TEXT_CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * Reads the tEXt chunks of a PNG (keyword → Latin-1 text), checking the signature, lengths and
 * CRCs. Character cards keep their JSON there, base64-encoded, under `chara` (V2) and `ccv3` (V3).
 * @throws AppError 400 for a file that is not a PNG, a truncated or corrupt chunk, or a text chunk
 * over MAX_TEXT_CHUNK_BYTES.
 */
export function readPngTextChunks(png: Buffer): Map<string, string> {
  if (png.length < 8 || !png.subarray(0, 8).equals(SIGNATURE))
    throw badRequest(msg("characters.fileNotPngImage"));
  const texts = new Map<string, string>();
  let offset = 8;
  while (offset + 12 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString("latin1", offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > png.length) throw badRequest(msg("characters.pngTruncated"));
    if (type === "tEXt") {
      if (length > MAX_TEXT_CHUNK_BYTES) throw badRequest(msg("characters.metadataChunkLargerThan4"));
      const body = png.subarray(offset + 8, offset + 8 + length);
      if (crc32(png.subarray(offset + 4, offset + 8 + length)) !== png.readUInt32BE(offset + 8 + length)) {
        throw badRequest(msg("characters.pngChunkCorruptBadChecksum"));
      }
      const zero = body.indexOf(0);
      if (zero > 0) texts.set(body.toString("latin1", 0, zero), body.toString("latin1", zero + 1));
    }
    if (type === "IEND") break;
    offset = end;
  }
  return texts;
}

/**
 * Returns the PNG with its tEXt chunks of the given keywords replaced by `texts` (inserted before
 * IEND). Text is Latin-1 (card payloads are base64, hence ASCII).
 */
export function writePngTextChunks(png: Buffer, texts: Record<string, string>): Buffer {
  const parts: Buffer[] = [SIGNATURE];
  let offset = 8;
  while (offset + 12 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString("latin1", offset + 4, offset + 8);
    const chunk = png.subarray(offset, offset + 12 + length);
    if (type === "IEND") {
      for (const [keyword, text] of Object.entries(texts)) parts.push(textChunk(keyword, text));
      parts.push(chunk);
      break;
    }
    const keyword = type === "tEXt" ? chunk.toString("latin1", 8, chunk.indexOf(0, 8)) : "";
    if (!(keyword in texts)) parts.push(chunk);
    offset += 12 + length;
  }
  return Buffer.concat(parts);
}

function textChunk(keyword: string, text: string): Buffer {
  const data = Buffer.concat([Buffer.from(keyword, "latin1"), Buffer.from([0]), Buffer.from(text, "latin1")]);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write("tEXt", 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}
