// A ZIP built in memory with fflate's streaming writer, for the data export.
import { lazyModule } from "../../lazy-module";

/** fflate, loaded with the first export, not at startup. */
const loadFflate = lazyModule<typeof import("fflate")>("fflate");

/**
 * A ZIP written with fflate's streaming `Zip`: files are added one after another, text files may
 * be written in parts (compressed as they come); the compressed output is collected.
 */
export class ZipBuilder {
  private readonly chunks: Uint8Array[] = [];
  private error: Error | null = null;
  private done = false;
  private readonly fflate = loadFflate();
  private readonly zip = new this.fflate.Zip((error, data, final) => {
    if (error) this.error = error;
    else this.chunks.push(data);
    if (final) this.done = true;
  });

  /** Adds a whole file; `compress` false stores it (pictures are compressed already). */
  add(name: string, bytes: Buffer, compress: boolean): void {
    const file = compress
      ? new this.fflate.ZipDeflate(name, { level: 6 })
      : new this.fflate.ZipPassThrough(name);
    this.zip.add(file);
    file.push(bytes, true);
    this.check();
  }

  /** A compressed text file written in parts; `end()` must be called before the next file. */
  text(name: string): { push(text: string): void; end(): void } {
    const file = new this.fflate.ZipDeflate(name, { level: 6 });
    this.zip.add(file);
    return {
      push: (text) => {
        file.push(Buffer.from(text, "utf8"));
        this.check();
      },
      end: () => {
        file.push(new Uint8Array(0), true);
        this.check();
      },
    };
  }

  /** Ends the ZIP. @returns its bytes. @throws fflate's error, or when the ZIP did not end. */
  finish(): Buffer {
    this.zip.end();
    this.check();
    if (!this.done) throw new Error("the ZIP was not finished");
    return Buffer.concat(this.chunks);
  }

  private check(): void {
    if (this.error) throw this.error;
  }
}
