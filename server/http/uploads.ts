// The zod shape of an optional multipart file field (absent or empty means undefined).
import { z } from "zod";

/** A multipart file field that may be absent or empty: the bytes, or undefined. */
export const optionalUpload = z
  .union([z.instanceof(Buffer), z.literal("")])
  .optional()
  .transform((v) => (v instanceof Buffer && v.length > 0 ? v : undefined));
