import type { ModelDownloadProgress } from "../../../../common/api";
import i18n, { currentLanguage } from "../../../i18n";

/** The banner's own texts (issue 16), from the "chat" catalogue's `banner` (issue 18). */
export const bannerTexts = {
  /** The progress element's accessible name. */
  get downloadLabel(): string {
    return i18n.t("chat:banner.downloadLabel");
  },
  percent: (percent: number) => i18n.t("chat:banner.percent", { percent }),
  /** While the file's size is unknown: what has arrived, in megabytes (10^6 bytes, one decimal). */
  downloaded: (bytes: number) =>
    i18n.t("chat:banner.downloaded", {
      megabytes: new Intl.NumberFormat(currentLanguage(), {
        minimumFractionDigits: 1,
        maximumFractionDigits: 1,
      }).format(bytes / 1_000_000),
    }),
};

/**
 * Why the chat cannot answer now (issue 16: no model yet, downloading, server unreachable), as
 * visible text in a status region; nothing when `reason` is empty. While the server downloads
 * the model (`download`, from GET /chat/capabilities `modelDownload`) it adds a progress bar
 * named "Language model download" with the percent as text, or an indeterminate bar and the
 * megabytes so far while the size is unknown.
 */
export function ChatBanner({ reason, download }: { reason: string; download?: ModelDownloadProgress }) {
  if (reason === "") return null;
  const percent = download?.percent ?? null;
  return (
    <p className="chat-banner" role="status">
      {reason}
      {download && (
        <span className="chat-banner__progress">
          {" "}
          <progress
            aria-label={bannerTexts.downloadLabel}
            max={100}
            {...(percent === null ? {} : { value: percent })}
          />{" "}
          <span>
            {percent === null ? bannerTexts.downloaded(download.doneBytes) : bannerTexts.percent(percent)}
          </span>
        </span>
      )}
    </p>
  );
}
