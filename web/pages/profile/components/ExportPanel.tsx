// The profile's "Download my data": start an export, follow its preparation, download the ZIP before its link expires.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { DataExport } from "../../../../common/api";
import { downloadDataExport, getDataExport, startDataExport } from "../../../api/account-export";
import { Spinner } from "../../../components/Spinner";
import { currentLanguage, formatDate } from "../../../i18n";
import { succeed, warn } from "../../../lib/notify";
import "./export-panel.css";
import { saveBlob } from "../../../lib/saveBlob";

const EXPORT_KEY = ["account-export"] as const;
/** How often the state is asked again while the export is being prepared, ms. */
const POLL_MS = 2000;

/** "Mar 5, 2026, 2:05 PM" in the app's language and the reader's time zone. */
const when = (ms: number): string => formatDate(ms, { dateStyle: "medium", timeStyle: "short" });

/** "1.2 MB" / "640 KB", the number in the app's language ("1,2 MB" in German). */
function size(bytes: number): string {
  const number = new Intl.NumberFormat(currentLanguage(), {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
  if (bytes >= 1024 * 1024) return `${number.format(bytes / 1024 / 1024)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

const busy = (data: DataExport | null | undefined) => data?.status === "queued" || data?.status === "running";

/**
 * The profile's "Download my data" ("Take my data"): starts an export of the user's data
 * (POST /account/export), shows its state while the background job prepares it (asked again
 * every 2 s), then a button that downloads the ZIP with the bearer token and when the link
 * expires (24 h). A refusal (one already being prepared, three a day) shows the server's sentence.
 * Texts: the "profile" catalogue's `export.*`.
 */
export function ExportPanel() {
  const { t } = useTranslation("profile");
  const titleId = useId();
  const client = useQueryClient();
  const state = useQuery({
    queryKey: EXPORT_KEY,
    queryFn: getDataExport,
    staleTime: 0,
    refetchInterval: (query) => (busy(query.state.data) ? POLL_MS : false),
  });
  const start = useMutation({
    mutationFn: startDataExport,
    onSuccess: (started) => {
      client.setQueryData(EXPORT_KEY, started);
      succeed(t("export.started"));
    },
    onError: (error) => warn(error.message),
    onSettled: () => client.invalidateQueries({ queryKey: EXPORT_KEY }),
  });
  const download = useMutation({
    mutationFn: async (url: string) => {
      const { blob, fileName } = await downloadDataExport(url);
      saveBlob(blob, fileName);
    },
    onError: (error) => {
      warn(error.message);
      void client.invalidateQueries({ queryKey: EXPORT_KEY });
    },
  });
  const current = state.data;
  const preparing = busy(current) || start.isPending;

  return (
    <div className="card entity-card">
      <section className="export-panel" aria-labelledby={titleId} aria-busy={preparing}>
        <h2 id={titleId}>{t("export.title")}</h2>
        <p className="muted">{t("export.intro")}</p>
        {state.isLoading ? (
          <Spinner label={t("export.loading")} />
        ) : state.isError ? (
          <p className="muted">{t("export.loadError")}</p>
        ) : (
          <div role="status" aria-live="polite">
            {preparing && <p>{t("export.preparing")}</p>}
            {current?.status === "ready" && current.downloadUrl && current.expiresAt !== null && (
              <p>{t("export.ready", { size: size(current.sizeBytes), expires: when(current.expiresAt) })}</p>
            )}
            {current?.status === "failed" && <p>{t("export.failed")}</p>}
            {current?.status === "expired" && <p>{t("export.expired")}</p>}
          </div>
        )}
        <div className="entity-form__actions">
          {current?.status === "ready" && current.downloadUrl && (
            <button
              type="button"
              className="button"
              disabled={download.isPending}
              aria-busy={download.isPending}
              onClick={() => current.downloadUrl && download.mutate(current.downloadUrl)}
            >
              {download.isPending ? t("export.downloading") : t("export.download")}
            </button>
          )}
          {!preparing && !state.isLoading && (
            <button
              type="button"
              className={current?.status === "ready" ? "button button--ghost" : "button"}
              onClick={() => start.mutate()}
            >
              {current ? t("export.startAgain") : t("export.start")}
            </button>
          )}
        </div>
      </section>
    </div>
  );
}
