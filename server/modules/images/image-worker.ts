// The durable image jobs: claiming queued pictures, generating each within the timeout, storing it and updating its reply.
import { randomUUID } from "node:crypto";
import type { ChatHistoryRow, ImageJob } from "../../db/schema";
import { loadSharp, MAX_INPUT_PIXELS } from "../../media/picture";
import { type ImageProvider, MAX_REFERENCE_BYTES, type ReferenceImage } from "../../providers/image/image";
import type { FileStorage } from "../../providers/storage/storage";
import { decodeReservation, type QuotaService } from "../quota/quota.service";
import type { ImagesRepo } from "./images.repo";

/** A job is tried at most this many times (a restart or a stale claim counts as a try). */
const MAX_ATTEMPTS = 2;
/** Longest side of a stored generated picture, pixels. */
const MAX_GENERATED_SIDE = 2048;
/** How often the queue is looked at for jobs other processes queued or left behind, milliseconds. */
const SWEEP_MS = 5000;

/** A stored photo's file name as the app writes them (a uuid and an image extension). */
const PHOTO_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*\.(jpe?g|png|webp)$/i;

/** What the reply says while its picture is being made, and after it failed. */
export const IMAGE_PENDING_TEXT = "*takes a picture for you* One moment…";
export const IMAGE_FAILED_TEXT = "I couldn't send the picture this time. Please try again.";

export interface ImageWorkerOptions {
  /** Jobs generated at once (IMAGE_CONCURRENCY). */
  concurrency: number;
  /** One try ends after this long (IMAGE_TIMEOUT_MS), milliseconds. */
  timeoutMs: number;
  now?: () => number;
  log: (error: unknown) => void;
}

/** Re-encodes a provider's picture as a JPEG without metadata, at most 2048 px on its longest side. */
async function toJpeg(bytes: Buffer): Promise<Buffer> {
  return loadSharp()(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize({
      width: MAX_GENERATED_SIDE,
      height: MAX_GENERATED_SIDE,
      fit: "inside",
      withoutEnlargement: true,
    })
    .flatten({ background: "#ffffff" })
    .jpeg({ quality: 90, mozjpeg: true })
    .toBuffer();
}

/**
 * Runs the durable image jobs. Jobs live in the `image_jobs` table: `kick()` claims
 * queued ones (and running ones whose claim is older than the timeout: their process ended) up to
 * the concurrency; each try is ended by the timeout. Done: the picture is stored as
 * `content/{chat_key}/{uuid}.jpg`, the entry gets `reply_image` and loading 0. Failed (provider
 * error, timeout on the last try): loading 0, the reply says so, and the quota message is given back
 * to the period it was charged to; so is the message of a job whose entry New Chat deleted.
 * `stop()` puts the jobs it was running back in the queue for the next start. When the provider
 * takes a reference (IMAGE_REFERENCE=photo) each try sends the photo of the entry's
 * character along (`referenceFor`).
 */
export class ImageWorker {
  private readonly running = new Map<string, AbortController>();
  private readonly done = new Set<Promise<void>>();
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private kicking: Promise<void> | undefined;
  private kickAgain = false;
  private readonly now: () => number;

  constructor(
    private readonly repo: ImagesRepo,
    private readonly quota: QuotaService,
    private readonly provider: ImageProvider,
    private readonly storage: FileStorage,
    private readonly options: ImageWorkerOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Resumes the jobs left in the database and looks again every few seconds. */
  start(): void {
    this.kick();
    this.timer = setInterval(() => this.kick(), SWEEP_MS);
    this.timer.unref();
  }

  /** Looks for jobs to run now (after a job is queued, after one ends). */
  kick(): void {
    if (this.stopped) return;
    if (this.kicking) {
      this.kickAgain = true;
      return;
    }
    this.kicking = this.fill()
      .catch(this.options.log)
      .finally(() => {
        this.kicking = undefined;
        if (this.kickAgain) {
          this.kickAgain = false;
          this.kick();
        }
      });
  }

  /** Resolves when no job is running or being claimed (tests). */
  async idle(): Promise<void> {
    while (this.kicking || this.done.size > 0) {
      await this.kicking;
      await Promise.all([...this.done]);
    }
  }

  /** Stops claiming, aborts the running tries and puts their jobs back in the queue. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.kicking;
    const ids = [...this.running.keys()];
    for (const controller of this.running.values()) controller.abort(new Error("shutdown"));
    await Promise.all([...this.done]);
    await this.repo.requeue(ids);
  }

  private async fill(): Promise<void> {
    const free = this.options.concurrency - this.running.size;
    if (free <= 0) return;
    const now = this.now();
    const candidates = await this.repo.pending(free + this.running.size + 10);
    let started = 0;
    for (const job of candidates) {
      if (started >= free || this.stopped) break;
      if (this.running.has(job.id)) continue;
      // A running job is someone else's until its try must have ended (timeout plus a margin).
      if (!(await this.repo.claim(job.id, now, now - this.options.timeoutMs - 2000))) continue;
      started += 1;
      const claimed = { ...job, attempts: job.attempts + 1 };
      if (job.status === "running" && claimed.attempts > MAX_ATTEMPTS) {
        await this.fail(claimed, "timed out");
        continue;
      }
      const controller = new AbortController();
      this.running.set(job.id, controller);
      const run = this.run(claimed, controller)
        .catch(this.options.log)
        .finally(() => {
          this.running.delete(job.id);
          this.done.delete(run);
          this.kick();
        });
      this.done.add(run);
    }
  }

  private async run(job: ImageJob, controller: AbortController): Promise<void> {
    const timer = setTimeout(() => controller.abort(new Error("timeout")), this.options.timeoutMs);
    // A provider that ignores the signal still ends here.
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener("abort", () => reject(controller.signal.reason), { once: true });
    });
    aborted.catch(() => {});
    try {
      // New Chat may have deleted the entry while the job waited: nothing to draw it for.
      const waiting = await this.repo.entry(job.entry_id);
      if (!waiting) {
        await this.dropOrphan(job);
        return;
      }
      const reference = await this.referenceFor(job, waiting);
      const image = await Promise.race([
        this.provider.generate({
          prompt: job.prompt,
          negativePrompt: job.negative_prompt,
          width: job.width,
          height: job.height,
          seed: job.seed,
          ...(reference ? { reference } : {}),
          signal: controller.signal,
        }),
        aborted,
      ]);
      const jpeg = await toJpeg(image.bytes);
      const file = `${randomUUID()}.jpg`;
      await this.storage.put(`${job.chat_key}/${file}`, jpeg);
      const entry = await this.repo.entry(job.entry_id);
      if (!entry) {
        // The chat was cleared meanwhile: nothing to show the picture in.
        await this.storage.remove(`${job.chat_key}/${file}`);
        await this.dropOrphan(job);
        return;
      }
      const reply = entry.reply_message === IMAGE_PENDING_TEXT ? "" : entry.reply_message;
      await this.repo.updateEntry(job.entry_id, {
        reply_image: file,
        image_loading: 0,
        reply_message: reply,
        reply_time: this.now(),
      });
      await this.repo.finish(job.id, "done", "", this.now());
    } catch (error) {
      if (
        this.stopped &&
        controller.signal.reason instanceof Error &&
        controller.signal.reason.message === "shutdown"
      ) {
        return; // requeued by stop()
      }
      this.options.log(error);
      await this.fail(job, error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The photo of the character the picture is of ("the same face"), for a provider that
   * takes a reference (`takesReference`, i.e. IMAGE_REFERENCE=photo on an engine that can): the
   * entry's character (a single chat's key for entries without one), looked up with the job's
   * user so that only that user's own character counts, and its stored file under characters/
   * read through the storage. Files above MAX_REFERENCE_BYTES, of an unexpected name or type, and
   * storage errors (logged) mean no reference: the picture is then drawn from the words and the
   * seed, as before.
   */
  private async referenceFor(job: ImageJob, entry: ChatHistoryRow): Promise<ReferenceImage | undefined> {
    if (!this.provider.takesReference) return undefined;
    try {
      const photo = await this.repo.characterPhoto(job.user_id, entry.character_id || job.chat_key);
      if (!photo || !PHOTO_NAME.test(photo)) return undefined;
      const key = `characters/${photo}`;
      const stat = await this.storage.stat(key);
      if (!stat || stat.size > MAX_REFERENCE_BYTES || !stat.contentType.startsWith("image/"))
        return undefined;
      const bytes = await this.storage.read(key);
      if (!bytes || bytes.length === 0 || bytes.length > MAX_REFERENCE_BYTES) return undefined;
      return { bytes, mimeType: stat.contentType };
    } catch (error) {
      this.options.log(error);
      return undefined;
    }
  }

  /**
   * Ends a job whose history entry New Chat deleted: failed, and its message given
   * back to the period it was charged to, since the user never gets the picture.
   */
  private async dropOrphan(job: ImageJob): Promise<void> {
    await this.repo.finish(job.id, "failed", "the history entry was deleted", this.now());
    await this.refund(job);
  }

  /** Gives the job's message back to the period it was charged to, read from the job. */
  private async refund(job: ImageJob): Promise<void> {
    const charge = decodeReservation(job.quota_bucket);
    if (charge) await this.quota.refundMessage(job.user_id, charge);
  }

  private async fail(job: ImageJob, reason: string): Promise<void> {
    const entry = await this.repo.entry(job.entry_id);
    if (entry) {
      const reply =
        entry.reply_message === IMAGE_PENDING_TEXT || entry.reply_message === ""
          ? IMAGE_FAILED_TEXT
          : `${entry.reply_message}\n\n${IMAGE_FAILED_TEXT}`;
      await this.repo.updateEntry(job.entry_id, {
        image_loading: 0,
        reply_message: reply,
        error: `image: ${reason}`.slice(0, 500),
        reply_time: entry.reply_time ?? this.now(),
      });
    }
    await this.repo.finish(job.id, "failed", reason, this.now());
    await this.refund(job);
  }
}
