/** How long a blob address lives after its download started; the browser has read it by then. */
const REVOKE_AFTER_MS = 10_000;

/** Saves a blob address as a file with the given name, then revokes the address. */
export function saveBlobUrl(blobUrl: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = blobUrl;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(blobUrl), REVOKE_AFTER_MS);
}

/** Saves a blob as a file with the given name. */
export function saveBlob(blob: Blob, fileName: string): void {
  saveBlobUrl(URL.createObjectURL(blob), fileName);
}
