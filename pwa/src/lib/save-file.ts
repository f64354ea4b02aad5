/** Has the browser save `blob` as a download named `fileName` (CSV export, stock image download). */
export function saveBlobAs(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the URL after click() returns: let it live a little.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
