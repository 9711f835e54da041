// An in-process S3 server for tests (s3rver) on 127.0.0.1, with one empty bucket.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { S3Config } from "../env";

/** An in-process S3 server for tests (s3rver), on 127.0.0.1 at a free port, files in a temp dir. */
export interface TestS3 {
  /** Settings for S3Storage: the created bucket, path-style, s3rver's fixed credentials. */
  config: S3Config;
  /** The same as environment variables (with the CONTENT_SECRET S3 needs), for `createTestApp({ env })`. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Starts s3rver with one empty bucket (default "content"); no network beyond 127.0.0.1.
 * @param options.prefix S3_PREFIX to use (default "").
 */
export async function startTestS3(options: { bucket?: string; prefix?: string } = {}): Promise<TestS3> {
  const bucket = options.bucket ?? "content";
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "companion-s3-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver accepts requests signed with S3RVER / S3RVER.
  const config: S3Config = {
    bucket,
    endpoint,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    forcePathStyle: true,
    prefix: options.prefix ?? "",
    timeoutMs: 10_000,
  };
  return {
    config,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_PREFIX: config.prefix,
      // Required with S3_BUCKET: instances sharing content sign the picture cookie alike.
      CONTENT_SECRET: "test-content-secret",
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
