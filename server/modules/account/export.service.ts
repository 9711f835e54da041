// "Take my data": building a user's data export ZIP as a background job, its limits, 24-hour availability and clean-up.
import { randomBytes, randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import type { DataExport } from "../../../common/api";
import type { User } from "../../db/schema";
import { notFound, tooMany } from "../../errors";
import { msg } from "../../i18n/messages";
import type { JobQueue } from "../../jobs/queue";
import type { Mailer } from "../../providers/mail/mail";
import type { FileStorage } from "../../providers/storage/storage";
import type { DataExportRow, ExportRepo } from "./export.repo";
import { buildArchive, type CardExporter } from "./export-archive";

/** How long a ready export can be downloaded ("available for 24 h"), ms. */
export const EXPORT_TTL_MS = 24 * 3_600_000;
/** Exports a user may start within `EXPORT_WINDOW_MS` (ours: building one reads all their data). */
export const EXPORTS_PER_WINDOW = 3;
export const EXPORT_WINDOW_MS = 24 * 3_600_000;
/** A queued or running export older than this is taken as lost (its process ended) and failed, ms. */
export const EXPORT_STALL_MS = 3_600_000;
/** How often the clean-up of expired and lost exports runs, ms. */
export const EXPORT_CLEANUP_MS = 10 * 60_000;
/** The content area's folder of exports: `exports/<user id>/<random>.zip`, served by no route. */
export const EXPORTS_FOLDER = "exports";

/** The folder of a user's export ZIPs in the content area (erasure removes it). */
export const exportFolder = (userId: string) => `${EXPORTS_FOLDER}/${userId}`;
export type { CardExporter } from "./export-archive";

/** What the export needs besides its table (wired by server/container.ts). */
export interface ExportDeps {
  storage: FileStorage;
  mailer: Mailer;
  jobs: JobQueue;
  cards: CardExporter;
  /** Where failed builds are logged. */
  logError: (error: unknown) => void;
  publicUrl: string;
  /** Largest single file put in the ZIP, bytes (larger ones are skipped with a note). Default 25 MB. */
  maxFileBytes?: number;
  /** Most bytes put in one ZIP (before compression); files past it are skipped with a note. Default 200 MB (the ZIP is built in memory). */
  maxTotalBytes?: number;
  now?: () => number;
}

/** The export's mail job: retried while the mail server is away. */
const MAIL_JOB = { attempts: 5, backoffMs: 5000 };

/**
 * "Take my data": a ZIP of the user's account (account.json), every chat as a
 * SillyTavern JSONL file, every character as a V3 PNG card (with the V2 `chara` chunk too), and
 * the user's photos and their chats' pictures; built by the background job "account.export",
 * kept in the content area under `exports/<user id>/<random>.zip` (no public route serves that
 * folder) and downloadable by its owner for 24 h, then removed by the clean-up.
 */
export class ExportService {
  private readonly maxFileBytes: number;
  private readonly maxTotalBytes: number;
  private readonly now: () => number;

  constructor(
    private readonly repo: ExportRepo,
    private readonly deps: ExportDeps,
  ) {
    this.maxFileBytes = deps.maxFileBytes ?? 25 * 1024 * 1024;
    this.maxTotalBytes = deps.maxTotalBytes ?? 200 * 1024 * 1024;
    this.now = deps.now ?? Date.now;
    // Not retried: a failed build is marked "failed" and the user may start another.
    deps.jobs.define<{ id: string }>("account.export", ({ id }) => this.build(id));
    deps.jobs.define<{ email: string; name: string }>(
      "account.export-mail",
      (message) => this.sendReadyMail(message),
      MAIL_JOB,
    );
  }

  /**
   * Starts an export of the user's data (queues the job "account.export").
   * @throws AppError 429 "rate_limit" when one is already queued or running, or the user started
   * EXPORTS_PER_WINDOW in the last 24 hours.
   */
  async start(user: User): Promise<DataExport> {
    const now = this.now();
    const recent = await this.repo.listForUser(user.id, EXPORTS_PER_WINDOW + 1);
    if (recent.some((e) => e.status === "queued" || e.status === "running"))
      throw tooMany(msg("account.dataAlreadyBeingPreparedWill"));
    if (recent.filter((e) => e.created_at > now - EXPORT_WINDOW_MS).length >= EXPORTS_PER_WINDOW)
      throw tooMany(msg("account.downloadDataTimesDayUse", { EXPORTS_PER_WINDOW }));
    const row: DataExportRow = {
      id: randomUUID(),
      user_id: user.id,
      status: "queued",
      file_key: "",
      size_bytes: 0,
      error: "",
      created_at: now,
      ready_at: null,
      expires_at: null,
    };
    await this.repo.insert(row);
    // Two requests at once: the later insert gives way (one export at a time).
    const active = (await this.repo.listForUser(user.id, EXPORTS_PER_WINDOW + 2)).filter(
      (e) => e.status === "queued",
    );
    if (active.length > 1 && active.at(-1)?.id !== row.id) {
      await this.repo.delete(row.id);
      throw tooMany(msg("account.dataAlreadyBeingPreparedWill"));
    }
    await this.deps.jobs.enqueue("account.export", { id: row.id });
    return view(row, now);
  }

  /** The user's newest export, or null when they have none. */
  async latest(user: User): Promise<DataExport | null> {
    const [row] = await this.repo.listForUser(user.id, 1);
    return row ? view(row, this.now()) : null;
  }

  /**
   * The ZIP of export `id` for its owner, while it is ready and not expired.
   * @throws AppError 404 for an unknown id, another user's export, or one not ready or expired.
   */
  async download(user: User, id: string): Promise<{ stream: Readable; size: number; fileName: string }> {
    const row = await this.repo.findForUser(user.id, id);
    if (row?.status !== "ready" || !row.file_key || (row.expires_at ?? 0) <= this.now())
      throw notFound(msg("account.downloadNotAvailablePrepareData"));
    const stream = await this.deps.storage.stream(row.file_key);
    if (!stream) throw notFound(msg("account.downloadNotAvailablePrepareData"));
    return {
      stream,
      size: row.size_bytes,
      fileName: `my-data-${new Date(row.ready_at ?? row.created_at).toISOString().slice(0, 10)}.zip`,
    };
  }

  /**
   * The clean-up (periodic job): removes the ZIPs of exports past `expires_at` and marks them
   * "expired"; marks exports queued or running for over EXPORT_STALL_MS "failed" (their job was
   * lost with its process). @returns how many exports it changed.
   */
  async cleanup(now = this.now()): Promise<number> {
    let changed = 0;
    for (const row of await this.repo.expired(now)) {
      if (row.file_key) await this.deps.storage.remove(row.file_key);
      if (await this.repo.update(row.id, ["ready"], { status: "expired", file_key: "" })) changed++;
    }
    for (const row of await this.repo.stalled(now - EXPORT_STALL_MS)) {
      if (await this.repo.update(row.id, ["queued", "running"], { status: "failed", error: "lost" }))
        changed++;
    }
    return changed;
  }

  /**
   * The job: builds the ZIP of the export `id`, stores it and marks it ready (24 h), then mails a
   * member that it is ready. Failures are logged and mark the export "failed".
   */
  async build(id: string): Promise<void> {
    const row = await this.repo.find(id);
    if (!row || !(await this.repo.update(id, ["queued"], { status: "running" }))) return;
    let key = "";
    try {
      const user = await this.repo.user(row.user_id);
      if (!user) return;
      const zip = await buildArchive(
        {
          repo: this.repo,
          storage: this.deps.storage,
          cards: this.deps.cards,
          maxFileBytes: this.maxFileBytes,
          maxTotalBytes: this.maxTotalBytes,
          now: this.now,
        },
        user,
      );
      key = `${exportFolder(user.id)}/${randomBytes(24).toString("base64url")}.zip`;
      await this.deps.storage.put(key, zip);
      const readyAt = this.now();
      const ready = await this.repo.update(id, ["running"], {
        status: "ready",
        file_key: key,
        size_bytes: zip.length,
        ready_at: readyAt,
        expires_at: readyAt + EXPORT_TTL_MS,
      });
      // The account was erased (or the export failed by the clean-up) meanwhile: nothing to keep.
      if (!ready) {
        await this.deps.storage.remove(key);
        return;
      }
      if (user.email && !user.is_demo)
        await this.deps.jobs.enqueue("account.export-mail", {
          email: user.email,
          name: user.full_name || user.user_name,
        });
    } catch (error) {
      this.deps.logError(error);
      if (key) await this.deps.storage.remove(key).catch(() => undefined);
      const message = error instanceof Error ? error.message : String(error);
      await this.repo.update(id, ["running"], { status: "failed", error: message.slice(0, 500) });
    }
  }

  private async sendReadyMail(message: { email: string; name: string }): Promise<void> {
    await this.deps.mailer.send({
      to: message.email,
      subject: "Your data is ready to download",
      text: [
        `Hello ${message.name},`,
        "",
        "The copy of your data you asked for is ready: your account, your chats (in SillyTavern's chat format), your characters as cards, and your photos and chat pictures.",
        "",
        `Download it from your profile within 24 hours: ${this.deps.publicUrl}/user/profile`,
        "",
        "If you did not ask for it, please change your password.",
      ].join("\n"),
    });
  }
}

/** The API's view of a stored export (common/api.ts `DataExport`). */
function view(row: DataExportRow, now: number): DataExport {
  const expired = row.status === "ready" && (row.expires_at ?? 0) <= now;
  const status = (expired ? "expired" : row.status) as DataExport["status"];
  return {
    id: row.id,
    status,
    createdAt: row.created_at,
    readyAt: row.ready_at,
    expiresAt: row.expires_at,
    sizeBytes: row.size_bytes,
    downloadUrl: status === "ready" ? `/api/account/export/${row.id}/download` : null,
  };
}
