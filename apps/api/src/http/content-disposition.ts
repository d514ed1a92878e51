/**
 * `Content-Disposition: attachment` with the file name encoded per RFC 6266: a quoted ASCII
 * fallback for old clients and the exact UTF-8 name in `filename*` (RFC 8187). Written here
 * because the maintained package now needs a newer Node than the platform supports.
 */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
