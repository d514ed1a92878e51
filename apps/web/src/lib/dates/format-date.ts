import dayjs, { type Dayjs } from 'dayjs';
import { DATE_FORMAT } from '@/config/constants';

/**
 * Formats a date for display: day, short month, year. Apart from the constants so that the
 * pages that show no dates (and the shell every page loads) do not carry the date library.
 */
export function formatDate(value: string | number | Date | Dayjs): string {
  return dayjs(value).format(DATE_FORMAT);
}
