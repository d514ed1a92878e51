import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { datePresets, defaultFilters, eventTypeLabel, toQuery } from './audit-log-filters';

const now = dayjs('2026-11-21T15:30:00');

describe('audit log filters', () => {
  it('open on the past 30 days, newest first, with every event type', () => {
    const filters = defaultFilters(now);
    expect(filters.range?.[0].format('YYYY-MM-DD HH:mm')).toBe('2026-10-22 00:00');
    expect(filters.range?.[1].format('YYYY-MM-DD HH:mm:ss')).toBe('2026-11-21 23:59:59');
    expect(filters).toMatchObject({ search: '', eventTypes: [], order: 'TIMESTAMP_DESC' });
  });

  it('offer the presets of the spec', () => {
    expect(datePresets(now).map((preset) => preset.label)).toEqual(['Today', 'Past 7 days', 'Past 30 days', 'Past 6 Months', 'Past Year']);
    const [today] = datePresets(now);
    expect(today!.value[0].format('YYYY-MM-DD HH:mm')).toBe('2026-11-21 00:00');
  });

  it('become the query of the API, leaving out what filters nothing', () => {
    const filters = { ...defaultFilters(now), search: '  report ', eventTypes: ['DOCUMENT_UPLOADED', 'DOCUMENT_DELETED'] as const };
    const query = toQuery({ ...filters, eventTypes: [...filters.eventTypes] }, 30, 15);
    expect(query).toEqual({
      search: 'report',
      event_type: ['DOCUMENT_UPLOADED', 'DOCUMENT_DELETED'],
      start_date: filters.range![0].toISOString(),
      end_date: filters.range![1].toISOString(),
      order_by: 'TIMESTAMP_DESC',
      skip: 30,
      limit: 15,
    });
    expect(toQuery({ ...defaultFilters(now), range: null }, 0, 15)).toEqual({ order_by: 'TIMESTAMP_DESC', skip: 0, limit: 15 });
  });

  it('pin the end of an export to when it started', () => {
    const started = dayjs('2026-11-21T15:31:00');
    expect(toQuery(defaultFilters(now), 0, 100, started).end_date).toBe(started.toISOString());
    expect(toQuery({ ...defaultFilters(now), range: null }, 0, 100, started).end_date).toBe(started.toISOString());
    const past = defaultFilters(now);
    past.range = [now.subtract(3, 'day'), now.subtract(2, 'day')];
    expect(toQuery(past, 0, 100, started).end_date).toBe(past.range[1].toISOString());
  });

  it('label event types for people', () => {
    expect(eventTypeLabel('DOCUMENT_UPLOADED')).toBe('Document uploaded');
    expect(eventTypeLabel('ACCESS_DENIED')).toBe('Access denied');
  });
});
