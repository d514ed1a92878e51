import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { DATE_FORMAT } from '@/config/constants';
import { formatDate } from './format-date';

describe('formatDate', () => {
  it('reads every form of date the app passes as dayjs reads it', () => {
    const values = [
      '2026-03-01T00:00:00.000Z',
      '2026-02-28T23:59:59.999Z',
      '2026-09-15T12:30:00+02:00',
      '2026-12-31T23:30:00-05:00',
      '2026-03-01',
      '2026-3-1',
      '2026-03-01T00:30',
      '2026-03-01 23:59:59.5',
      '0999-01-05T00:00:00Z',
      1_772_323_200_000,
      new Date(2026, 0, 9, 8),
      dayjs('2026-07-04T10:00:00Z'),
    ];
    for (const value of values) expect(formatDate(value), String(value)).toBe(dayjs(value).format(DATE_FORMAT));
  });

  it('writes day, short month and year', () => {
    expect(formatDate(new Date(2026, 1, 3))).toBe('3 Feb 2026');
    expect(formatDate(new Date(2026, 8, 30))).toBe('30 Sep 2026');
  });

  it('says so, as dayjs does, when the value is no date', () => {
    expect(formatDate('not a date')).toBe(dayjs('not a date').format(DATE_FORMAT));
  });
});
