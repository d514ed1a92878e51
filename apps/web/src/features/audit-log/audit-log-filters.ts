import type { Dayjs } from 'dayjs';
import type { AuditEventType } from '@hdp/contract';
import { AUDIT_LOG_DATE_PRESETS, AUDIT_LOG_DEFAULT_ORDER, AUDIT_LOG_DEFAULT_PRESET } from '@/config/constants';
import type { AuditOrder, ListAuditLogArgs } from './api/list-audit-log';

/** What the user filters the audit log by. */
export interface AuditLogFilters {
  search: string;
  eventTypes: AuditEventType[];
  /** Inclusive; null means all time. */
  range: [Dayjs, Dayjs] | null;
  order: AuditOrder;
}

/** The presets of the date range, computed from `now`. */
export function datePresets(now: Dayjs): { label: string; value: [Dayjs, Dayjs] }[] {
  return AUDIT_LOG_DATE_PRESETS.map((preset) => ({ label: preset.label, value: preset.range(now) as [Dayjs, Dayjs] }));
}

/** The filters the page opens with: no search, every event type, the past 30 days, newest first. */
export function defaultFilters(now: Dayjs): AuditLogFilters {
  const preset = AUDIT_LOG_DATE_PRESETS.find((candidate) => candidate.label === AUDIT_LOG_DEFAULT_PRESET)!;
  return { search: '', eventTypes: [], range: preset.range(now) as [Dayjs, Dayjs], order: AUDIT_LOG_DEFAULT_ORDER };
}

/**
 * The query for one page of entries. Dates go as instants with offset, so the local day
 * boundaries the user picked are kept (a date alone would mean a UTC day to the API).
 * `notAfter` caps the end (an export pins it to its start, so new entries do not shift pages).
 */
export function toQuery(filters: AuditLogFilters, skip: number, limit: number, notAfter?: Dayjs): ListAuditLogArgs {
  const search = filters.search.trim();
  let end = filters.range?.[1];
  if (notAfter && (!end || end.isAfter(notAfter))) end = notAfter;
  return {
    ...(search ? { search } : {}),
    ...(filters.eventTypes.length ? { event_type: filters.eventTypes } : {}),
    ...(filters.range ? { start_date: filters.range[0].toISOString() } : {}),
    ...(end ? { end_date: end.toISOString() } : {}),
    order_by: filters.order,
    skip,
    limit,
  };
}

/** An event type as people read it: DOCUMENT_UPLOADED → "Document uploaded". */
export function eventTypeLabel(type: string): string {
  const words = type.toLowerCase().split('_');
  return [words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1), ...words.slice(1)].join(' ');
}
