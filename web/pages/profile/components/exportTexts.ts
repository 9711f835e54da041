/**
 * The texts of the profile's "Download my data" panel (issue 18 "Take my data"), English, kept
 * apart so the translation of the profile pages can move them into its catalogue.
 */
export const EXPORT_TEXTS = {
  title: "Download my data",
  intro:
    "Get a copy of your account, every chat (in SillyTavern's chat format, so it opens there), every character as a card, and your photos and chat pictures, as one ZIP file. We prepare it in the background and e-mail you when it is ready; it can be downloaded for 24 hours.",
  start: "Download my data",
  startAgain: "Prepare a new copy",
  preparing: "Preparing your data… You can leave this page; we will e-mail you when it is ready.",
  started: "We are preparing your data.",
  ready: (size: string, expires: string) => `Your data is ready (${size}). The link works until ${expires}.`,
  download: "Download the ZIP",
  downloading: "Downloading…",
  failed: "Your data could not be prepared. Please try again.",
  expired: "The last download link has expired. Prepare a new copy to download your data again.",
  loadError: "Could not load the state of your data export. Please try again later.",
  loading: "Loading",
} as const;
