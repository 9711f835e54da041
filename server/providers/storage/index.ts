// Choosing file storage from configuration: an S3-compatible bucket when S3_BUCKET is set, else the local disk under CONTENT_DIR.
import type { AppConfig } from "../../env";
import { LocalStorage } from "./local";
import { S3Storage } from "./s3";
import type { FileStorage } from "./storage";

/**
 * The one place that maps configuration to file storage: S3-compatible object storage
 * when S3_BUCKET is set (`config.s3`), else the local disk under CONTENT_DIR (default
 * DATA_DIR/content), as before.
 */
export function createStorage(config: Pick<AppConfig, "s3" | "contentDir">): FileStorage {
  return config.s3 ? new S3Storage(config.s3) : new LocalStorage(config.contentDir);
}
