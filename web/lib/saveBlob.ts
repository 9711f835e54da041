// Handing a file to the browser as a download (a character card, the data export).
/**
 * Hands `blob` to the browser as a download named `fileName` (a character card, the data
 * export): an object URL clicked through a temporary link, freed 10 s later once the download
 * has started.
 */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
