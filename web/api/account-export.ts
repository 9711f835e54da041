// The user's data export ("Take my data"): start it, read its state, download its ZIP (GET and POST /account/export).
import type { DataExport, DataExportAnswer } from "../../common/api";
import { apiRequest, ensureSuccess } from "./client";
import { apiDownload } from "./download";

/**
 * GET /account/export (ours, "Take my data"): the signed-in user's newest export of
 * their data, or null when they have none. Throws `ApiError` when refused.
 */
export async function getDataExport(): Promise<DataExport | null> {
  const answer = ensureSuccess(await apiRequest<DataExportAnswer>("/account/export"));
  return answer.export ?? null;
}

/**
 * POST /account/export: starts preparing the user's data in the background.
 * @returns the new export (status "queued"). Throws `ApiError` with the server's sentence when
 * one is already being prepared or three were started in the last 24 hours (HTTP 429).
 */
export async function startDataExport(): Promise<DataExport | null> {
  const answer = ensureSuccess(
    await apiRequest<DataExportAnswer>("/account/export", { method: "POST", body: new URLSearchParams() }),
  );
  return answer.export ?? null;
}

/**
 * Downloads a ready export's ZIP with the bearer token (`downloadUrl` as the server gave it,
 * "/api/account/export/<id>/download"). Throws `ApiError` (404) once it expired or is not the user's.
 */
export function downloadDataExport(downloadUrl: string): Promise<{ blob: Blob; fileName: string }> {
  return apiDownload(downloadUrl.replace(/^\/api/, ""), undefined, "my-data.zip");
}
