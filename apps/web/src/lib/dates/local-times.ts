import { formatDate } from './format-date';

/** An ISO 8601 UTC timestamp as the API writes them inside a detail (`2026-11-26T16:24:54.013Z`). */
const ISO_UTC = /\b(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z)\b/g;

/** A moment in the reader's local time: "26 Nov 2026 at 16:24". */
export function formatDateTime(value: string | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return `${formatDate(date)} at ${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

/**
 * A server's sentence with its UTC timestamps written in the reader's local time ("at
 * 2026-11-26T16:24:54.013Z" → "on 26 Nov 2026 at 16:24"). The API speaks UTC so that its answers
 * and logs agree; a person reads their own clock.
 */
export function withLocalTimes(text: string): string {
  return text.replace(new RegExp(`\\bat ${ISO_UTC.source}`, 'g'), (_match, iso: string) => `on ${formatDateTime(iso)}`).replace(ISO_UTC, (iso) => formatDateTime(iso));
}
