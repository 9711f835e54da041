import { environmentManager, QueryClient, QueryClientProvider, QueryObserver } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type AdminBackups, downloadAdminBackup, startAdminBackup } from "../../../api/admin";
import { ApiError } from "../../../api/errors";
import i18n, { formatDate, loadNamespaces } from "../../../i18n";
import { backupsQueryOptions } from "../hooks/useAdminBackups";
import { BackupsSection } from "./BackupsSection";

/**
 * The admin console's Backups section, fed by the calls of web/api/admin.ts against a scripted
 * fetch and rendered to markup: the archives with their time, size, version, "Encrypted" marker
 * and download; the schedule, folder and last success; a failure newer than the last success in
 * an alert box; "Back up now" disabled while a backup runs, and the list asked again every 2 s
 * until it is done.
 */

const MADE = Date.UTC(2026, 2, 5, 3, 30);
const EARLIER = Date.UTC(2026, 2, 4, 3, 30);
const FAILED = Date.UTC(2026, 2, 6, 3, 30);

const NEWEST = "companion-2026-03-05T03-30-00.tar.gz.enc";
const OLDER = "companion-2026-03-04T03-30-00.tar.gz";

const STATE: AdminBackups = {
  backups: [
    { name: NEWEST, createdAt: MADE, size: 13_002_342, version: "1.0.28", encrypted: true },
    { name: OLDER, createdAt: EARLIER, size: 655_360, version: "1.0.27", encrypted: false },
  ],
  running: false,
  lastSuccessAt: MADE,
  lastFailure: { at: EARLIER - 60_000, message: "No space left on device" },
  schedule: "30 3 * * *",
  keep: 7,
  dir: "/var/backups/companion",
};

interface Call {
  url: string;
  method: string;
  authorization: string | undefined;
}

/** Replaces fetch (and local storage: an admin's token) for one test; each call takes the next answer. */
function scriptFetch(answers: Response[]): Call[] {
  const calls: Call[] = [];
  const token = JSON.stringify({ token: "admin-token", expirationTime: Date.now() + 3_600_000 });
  vi.stubGlobal("localStorage", { getItem: (key: string) => (key === "token" ? token : null) });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      const headers = (init.headers ?? {}) as Record<string, string>;
      calls.push({ url, method: init.method ?? "GET", authorization: headers.Authorization });
      const answer = answers.shift();
      if (answer === undefined) throw new TypeError("connection refused");
      return answer;
    }),
  );
  return calls;
}

function envelope(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

const listed = (state: AdminBackups) => envelope(200, { success: 1, message: "", data: state });

/** The section's markup once GET /api/admin/backups answered `state`; the calls made. */
async function render(state: AdminBackups): Promise<{ html: string; calls: Call[] }> {
  const calls = scriptFetch([listed(state)]);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await client.prefetchQuery(backupsQueryOptions);
  const html = renderToStaticMarkup(
    createElement(QueryClientProvider, { client }, createElement(BackupsSection)),
  );
  return { html, calls };
}

/** The text of the markup, tags removed. */
const text = (html: string) => html.replace(/<[^>]+>/g, "");

/** The `<button>` tag whose text is `label`, or null. */
const button = (html: string, label: string) =>
  new RegExp(`<button[^>]*>${label}</button>`).exec(html)?.[0] ?? null;

const when = (ms: number) => formatDate(ms, { dateStyle: "medium", timeStyle: "short" });

describe("the Backups section", () => {
  beforeAll(async () => {
    await i18n.changeLanguage("en");
    await loadNamespaces(["admin"]);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("lists the archives newest first: time, size, version, the Encrypted marker and a Download button each", async () => {
    const { html, calls } = await render(STATE);
    expect(calls).toEqual([
      { url: "/api/admin/backups", method: "GET", authorization: "Bearer admin-token" },
    ]);
    const rows = html.split("<tr>").slice(2).map(text);
    expect(rows).toEqual([
      `${when(MADE)}${NEWEST}Encrypted12.4 MB1.0.28Download`,
      `${when(EARLIER)}${OLDER}640 KB1.0.27Download`,
    ]);
    expect(html).toContain(`aria-label="Download ${NEWEST}"`);
    const shown = text(html);
    expect(shown).toContain("Scheduled: 30 3 * * * (cron), keeping the 7 newest");
    expect(shown).toContain("Folder: /var/backups/companion");
    expect(shown).toContain(`Last successful backup: ${when(MADE)}`);
    // the failure came before the last success: it is over, no alert.
    expect(html).not.toContain('role="alert"');
    expect(shown).not.toContain("No space left on device");
    const start = button(html, "Back up now");
    expect(start).not.toBeNull();
    expect(start).not.toContain("disabled");
  });

  it("shows a failure newer than the last success in an alert box, in plain words; no schedule, no backups yet", async () => {
    const { html } = await render({
      ...STATE,
      backups: [],
      lastSuccessAt: null,
      lastFailure: { at: FAILED, message: "No space left on device" },
      schedule: "",
    });
    expect(html).toContain(
      `<p class="admin-backups__failure" role="alert">The last backup failed at ${when(FAILED)}: No space left on device</p>`,
    );
    const shown = text(html);
    expect(shown).toContain("No schedule");
    expect(shown).not.toContain("Scheduled:");
    expect(shown).toContain("No successful backup yet");
    expect(shown).toContain("No backups yet.");
    expect(html).not.toContain("<table");

    const afterSuccess = await render({ ...STATE, lastFailure: { at: FAILED, message: "disk full" } });
    expect(afterSuccess.html).toContain('role="alert"');
    expect(text(afterSuccess.html)).toContain(`The last backup failed at ${when(FAILED)}: disk full`);
  });

  it("keeping one archive says so without a count", async () => {
    const { html } = await render({ ...STATE, keep: 1 });
    expect(text(html)).toContain("Scheduled: 30 3 * * * (cron), keeping only the newest");
  });

  it("while a backup runs, 'Back up now' is disabled and says 'Backing up…'", async () => {
    const { html } = await render({ ...STATE, running: true });
    const busy = button(html, "Backing up…");
    expect(busy).toContain('disabled=""');
    expect(busy).toContain('aria-busy="true"');
    expect(button(html, "Back up now")).toBeNull();
  });

  it("asks for the list again every 2 s while a backup runs, and stops once it is done", async () => {
    // the query client schedules no timers on a server (no `window`): this test is the browser.
    const wasServer = environmentManager.isServer();
    environmentManager.setIsServer(() => false);
    vi.useFakeTimers();
    const calls = scriptFetch([
      listed({ ...STATE, running: true }),
      listed({ ...STATE, running: true }),
      listed(STATE),
    ]);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const observer = new QueryObserver(client, backupsQueryOptions);
    const stop = observer.subscribe(() => undefined);
    try {
      await vi.advanceTimersByTimeAsync(0);
      expect(calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1999);
      expect(calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(2000);
      expect(calls).toHaveLength(3);
      expect(observer.getCurrentResult().data?.running).toBe(false);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(calls).toHaveLength(3);
    } finally {
      stop();
      environmentManager.setIsServer(() => wasServer);
    }
  });

  it("'Back up now' posts to /api/admin/backups; a refusal (409) throws the server's sentence", async () => {
    const calls = scriptFetch([
      envelope(200, { success: 1, message: "Backup started." }),
      envelope(409, { success: 0, message: "A backup is already running." }),
    ]);
    expect((await startAdminBackup()).message).toBe("Backup started.");
    expect(calls[0]).toEqual({
      url: "/api/admin/backups",
      method: "POST",
      authorization: "Bearer admin-token",
    });
    const refusal = await startAdminBackup().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({
      kind: "envelope",
      status: 409,
      message: "A backup is already running.",
    });
  });

  it("downloads an archive through the API client, with the bearer token, under the server's file name", async () => {
    const calls = scriptFetch([
      new Response(new Blob(["archive bytes"]), {
        status: 200,
        headers: {
          "Content-Type": "application/gzip",
          "Content-Disposition": `attachment; filename="${NEWEST}"`,
        },
      }),
      envelope(404, { success: 0, message: "No such backup." }),
    ]);
    const file = await downloadAdminBackup(NEWEST);
    expect(calls[0]).toEqual({
      url: `/api/admin/backups/${NEWEST}/download`,
      method: "GET",
      authorization: "Bearer admin-token",
    });
    expect(file.fileName).toBe(NEWEST);
    expect(await file.blob.text()).toBe("archive bytes");
    await expect(downloadAdminBackup("../etc/passwd")).rejects.toMatchObject({
      kind: "envelope",
      message: "No such backup.",
    });
    expect(calls[1]?.url).toBe("/api/admin/backups/..%2Fetc%2Fpasswd/download");
  });
});
