import { UPLOAD_MAX_BYTES } from '@/config/constants';

const count = new Intl.NumberFormat('en-GB');
const UNITS = ['bytes', 'kB', 'MB', 'GB'] as const;

/** A size for people, in decimal units as the cap is stated: 1 kB = 1,000 bytes. */
export function formatSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  if (unit === 0) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  return `${value >= 100 ? Math.round(value) : Number(value.toFixed(1))} ${UNITS[unit]}`;
}

/** An exact count of bytes: "20,000,000 bytes". */
export function formatBytes(bytes: number): string {
  return `${count.format(bytes)} bytes`;
}

/** The cap as the user reads it: "20,000,000 bytes (20 MB)". */
export const UPLOAD_CAP_TEXT = `${formatBytes(UPLOAD_MAX_BYTES)} (${formatSize(UPLOAD_MAX_BYTES)})`;

/** Why a file cannot be sent, or null when it may be. Checked in the browser, before any byte is sent. */
export function uploadRefusal(file: { name: string; size: number }, maxBytes: number = UPLOAD_MAX_BYTES): string | null {
  if (file.size > maxBytes) {
    return `"${file.name}" is ${formatBytes(file.size)}. A document can be at most ${formatBytes(maxBytes)} (${formatSize(maxBytes)}).`;
  }
  if (file.size === 0) return `"${file.name}" is empty.`;
  return null;
}
