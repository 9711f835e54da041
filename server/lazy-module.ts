// Loading an optional npm package (sharp, BullMQ, ioredis, the S3 SDK, Stripe, pg) on first use instead of at startup.
import { createRequire } from "node:module";

const requireHere = createRequire(import.meta.url);

/**
 * An npm package loaded on first use instead of at startup (a default install never
 * uses sharp, BullMQ, ioredis, the S3 SDK, Stripe, pg…, and each costs resident memory, sharp
 * also libvips threads). The package is loaded with `require` (all of them ship CommonJS), so
 * call sites stay synchronous; type it with `typeof import("pkg")`, or `typeof import("pkg").default`
 * where `require` returns the default export itself (sharp, stripe).
 * @param name the package, e.g. "sharp".
 * @returns a function that loads the package on its first call and returns the same module on
 *   every call.
 */
export function lazyModule<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= requireHere(name) as T;
    return loaded;
  };
}
