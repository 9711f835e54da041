// The admin console's Backups section: the archives with their downloads, "Back up now", the schedule and the last outcomes.
import { useTranslation } from "react-i18next";
import type { AdminBackups } from "../../../api/admin";
import { currentLanguage, formatDate } from "../../../i18n";
import { succeed } from "../../../lib/notify";
import { useAdminBackups, useDownloadBackup, useStartBackup } from "../hooks/useAdminBackups";
import { ActionButton } from "./ActionButton";
import { AdminTable } from "./AdminTable";

/** "Mar 5, 2026, 3:30 AM" in the app's language and the reader's time zone. */
const when = (ms: number): string => formatDate(ms, { dateStyle: "medium", timeStyle: "short" });

const SIZE_UNITS = ["B", "KB", "MB", "GB", "TB"];

/** "12.4 MB" / "640 KB" / "512 B" (1024 to a unit), the number in the app's language ("12,4 MB" in German). */
function sizeText(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit < 2 ? 0 : 1;
  const number = new Intl.NumberFormat(currentLanguage(), {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return `${number.format(value)} ${SIZE_UNITS[unit]}`;
}

/**
 * Backups: "Back up now" (disabled and "Backing up…" while one runs; the list is then asked
 * again every 2 s), the schedule, the folder and the last success, the last failure in an alert
 * box when it is newer than the last success, and the archives, newest first, each with its
 * download (through the API client, with the bearer token). Refusals show as toasts.
 */
export function BackupsSection() {
  const { t } = useTranslation("admin");
  const backups = useAdminBackups();
  const start = useStartBackup();
  const download = useDownloadBackup();
  const state = backups.data;
  const running = state?.running === true || start.isPending;
  return (
    <div className="admin-backups">
      <div className="row-actions">
        <ActionButton
          look="primary"
          disabled={state === undefined}
          busy={running}
          onClick={() => start.mutate(undefined, { onSuccess: (answer) => succeed(answer.message) })}
        >
          {running ? t("backups.running") : t("backups.start")}
        </ActionButton>
      </div>
      {state && <BackupsStatus state={state} />}
      <AdminTable
        label={t("backups.table")}
        rows={state?.backups.map((backup) => ({ ...backup, id: backup.name }))}
        loading={t("backups.loading")}
        empty={t("backups.empty")}
        columns={[
          { label: t("backups.time"), cell: (b) => when(b.createdAt) },
          {
            label: t("backups.archive"),
            cell: (b) => (
              <>
                <span className="admin-backups__name">{b.name}</span>
                {b.encrypted && <span className="admin-badge">{t("backups.encrypted")}</span>}
              </>
            ),
          },
          { label: t("backups.size"), cell: (b) => sizeText(b.size) },
          { label: t("backups.version"), cell: (b) => b.version },
          {
            label: t("common.actions"),
            cell: (b) => (
              <ActionButton
                label={t("backups.downloadOf", { name: b.name })}
                busy={download.isPending && download.variables === b.name}
                onClick={() => download.mutate(b.name)}
              >
                {t("backups.download")}
              </ActionButton>
            ),
          },
        ]}
      />
    </div>
  );
}

/**
 * The schedule (or "No schedule"), the folder and the last successful backup; below them the
 * last failure in plain words, in an alert box, when it came after the last success.
 */
function BackupsStatus({ state }: { state: AdminBackups }) {
  const { t } = useTranslation("admin");
  const failure = state.lastFailure;
  const failedLast = failure !== null && (state.lastSuccessAt === null || failure.at > state.lastSuccessAt);
  const schedule =
    state.schedule === ""
      ? t("backups.noSchedule")
      : t(state.keep === 1 ? "backups.scheduledOne" : "backups.scheduled", {
          schedule: state.schedule,
          keep: state.keep,
        });
  return (
    <>
      <ul className="admin-backups__facts">
        <li>{schedule}</li>
        <li>
          {t("backups.folder")} <code>{state.dir}</code>
        </li>
        <li>
          {state.lastSuccessAt === null
            ? t("backups.noSuccess")
            : t("backups.lastSuccess", { time: when(state.lastSuccessAt) })}
        </li>
      </ul>
      {failedLast && (
        <p className="admin-backups__failure" role="alert">
          {t("backups.failed", { time: when(failure.at), message: failure.message })}
        </p>
      )}
    </>
  );
}
