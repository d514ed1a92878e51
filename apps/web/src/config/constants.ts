import type { Dayjs } from 'dayjs';
// The zod-free entry: the browser bundle must not carry the schemas.
import { LIMITS } from '@hdp/contract/limits';

/**
 * The web app's business constants (spec §9), in one place. Limits the API also enforces
 * (upload cap, page-size bounds) come from the contract.
 */

/** Default page sizes of the lists. */
export const PAGE_SIZES = {
  users: 15,
  auditLog: 15,
  workbenches: 10,
  notebooks: 10,
  queries: 10,
  cohorts: 12,
  documents: 10,
  queryExecutions: 10,
} as const;

/** The page a list opens on, as it appears in the address bar. */
export const DEFAULT_PAGE = '1';
/** The offset (`skip`) of the first page. */
export const DEFAULT_OFFSET = 0;
/** The value of a filter that filters nothing. */
export const DEFAULT_FILTER = 'All';

/** Size, in pixels, of the full-page spinner shown during a route change. */
export const ROUTE_SPINNER_SIZE = 80;
/** Seconds before a tooltip opens. */
export const TOOLTIP_DELAY_SECONDS = 0.6;
/** Where toasts appear. */
export const TOAST_PLACEMENT = 'bottomRight' as const;

/** Dates show day, short month and year: 3 Feb 2026. */
export const DATE_FORMAT = 'D MMM YYYY';
/** Date with time, for audit entries and executions. */
export const DATE_TIME_FORMAT = 'D MMM YYYY, HH:mm';

/** The audit log's default sort. */
export const AUDIT_LOG_DEFAULT_ORDER = 'TIMESTAMP_DESC' as const;

/** The audit log's date-range presets; each gives [start, end] relative to `now`. */
export const AUDIT_LOG_DATE_PRESETS = [
  { label: 'Today', range: (now: Dayjs) => [now.startOf('day'), now.endOf('day')] },
  { label: 'Past 7 days', range: (now: Dayjs) => [now.subtract(7, 'day').startOf('day'), now.endOf('day')] },
  { label: 'Past 30 days', range: (now: Dayjs) => [now.subtract(30, 'day').startOf('day'), now.endOf('day')] },
  { label: 'Past 6 Months', range: (now: Dayjs) => [now.subtract(6, 'month').startOf('day'), now.endOf('day')] },
  { label: 'Past Year', range: (now: Dayjs) => [now.subtract(1, 'year').startOf('day'), now.endOf('day')] },
] as const satisfies readonly { label: string; range: (now: Dayjs) => [Dayjs, Dayjs] }[];
/** The preset the audit log opens with. */
export const AUDIT_LOG_DEFAULT_PRESET = 'Past 30 days';
/** The most entries one CSV export of the audit log holds; narrower filters export the rest. */
export const AUDIT_LOG_EXPORT_MAX_ROWS = 10_000;

/** Notebook defaults. */
export const DEFAULT_NOTEBOOK_ZONE = 'australia-southeast1-a';
export const DEFAULT_MACHINE_TYPE = 'n1-standard-4';

/** Largest document upload, in bytes (the API enforces the same cap). */
export const UPLOAD_MAX_BYTES = LIMITS.uploadMaxBytes;

/** Share of traces the error-reporting service samples (NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE overrides it). */
export const ERROR_TRACE_SAMPLE_RATE = 0.7;

/**
 * Product analytics (spec §9): queued events are sent every 3 s; a session recording sends its
 * buffer at about 0.9 MB (posthog-js's own cap, not a setting); a recording goes idle after 5
 * minutes without interaction.
 */
export const ANALYTICS_FLUSH_INTERVAL_MS = 3_000;
export const ANALYTICS_RECORDING_BUFFER_BYTES = 0.9 * 1024 * 1024;
export const ANALYTICS_IDLE_AFTER_MS = 5 * 60 * 1000;

/** RTK Query cache: keep unused data 60 s; refetch on mount when older than 900 s. */
export const KEEP_UNUSED_DATA_SECONDS = 60;
export const REFETCH_ON_MOUNT_SECONDS = 900;
/** A call that has not answered after this long fails with TIMEOUT_ERROR. */
export const REQUEST_TIMEOUT_MS = 30_000;
