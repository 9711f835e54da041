// The chat's status banner: why it cannot answer now (no model, downloading with progress, server unreachable), admin link.
import { Link } from "react-router";
import type { ModelDownloadProgress } from "../../../../common/api";
import i18n, { currentLanguage } from "../../../i18n";

/** The banner's own texts, from the "chat" catalogue's `banner`. */
export const bannerTexts = {
  /** The progress element's accessible name. */
  get downloadLabel(): string {
    return i18n.t("chat:banner.downloadLabel");
  },
  percent: (percent: number) => i18n.t("chat:banner.percent", { percent }),
  /** An admin's link to the admin console, where models are set. */
  get adminLink(): string {
    return i18n.t("chat:banner.adminLink");
  },
  /** While the file's size is unknown: what has arrived, in megabytes (10^6 bytes, one decimal). */
  downloaded: (bytes: number) =>
    i18n.t("chat:banner.downloaded", {
      megabytes: new Intl.NumberFormat(currentLanguage(), {
        minimumFractionDigits: 1,
        maximumFractionDigits: 1,
      }).format(bytes / 1_000_000),
    }),
};

/** The admin console's Models section, where an admin connects a language model. */
export const ADMIN_CONSOLE_PATH = "/admin#models";

/**
 * Why the chat cannot answer now (no model yet, downloading, server unreachable), as
 * visible text in a status region; nothing when `reason` is empty. While the server downloads
 * the model (`download`, from GET /chat/capabilities `modelDownload`) it adds a progress bar
 * named "Language model download" with the percent as text, or an indeterminate bar and the
 * megabytes so far while the size is unknown. With `adminLink` (an admin, and no model is
 * connected) it adds a link to the admin console, where models are set.
 */
export function ChatBanner({
  reason,
  download,
  adminLink = false,
}: {
  reason: string;
  download?: ModelDownloadProgress;
  adminLink?: boolean;
}) {
  if (reason === "") return null;
  const percent = download?.percent ?? null;
  return (
    <p className="chat-banner" role="status">
      {reason}
      {adminLink && (
        <>
          {" "}
          <Link to={ADMIN_CONSOLE_PATH}>{bannerTexts.adminLink}</Link>
        </>
      )}
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
