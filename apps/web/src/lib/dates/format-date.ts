import type { Dayjs } from 'dayjs';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
// A date, or a date and time, without a zone: read as local time, as dayjs reads it (Date would
// read a date alone as midnight UTC, the day before in the Americas).
const ZONELESS = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;

function toDate(value: string | number | Date | Dayjs): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value);
  if (typeof value !== 'string') return value.toDate();
  const zoneless = ZONELESS.exec(value);
  if (!zoneless) return new Date(value);
  // Fractions of a second never change the day.
  const [, year, month, day, hours, minutes, seconds] = zoneless.map((part) => Number(part ?? 0));
  return new Date(year!, month! - 1, day, hours, minutes, seconds);
}

/**
 * Formats a date for display: day, short month, year (`DATE_FORMAT`, 3 Feb 2026), in local time.
 * Without the date library, which the pages that show dates but pick none (and the accept-invitation
 * page a new user opens first) need not load.
 */
export function formatDate(value: string | number | Date | Dayjs): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return 'Invalid Date';
  return `${date.getDate()} ${MONTHS[date.getMonth()]} ${String(date.getFullYear()).padStart(4, '0')}`;
}
