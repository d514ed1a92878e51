import { useCallback, useState } from 'react';
import dayjs from 'dayjs';
import { LIMITS } from '@hdp/contract/limits';
import { useAppDispatch } from '@/app/hooks';
import { AUDIT_LOG_EXPORT_MAX_ROWS } from '@/config/constants';
import { showToast } from '@/lib/errors/notifier';
import { saveBlob } from '@/lib/files/save-blob-url';
import { listAuditLogApi } from '../api/list-audit-log';
import { auditEntriesToCsv, collectEntries } from '../audit-log-csv';
import { toQuery, type AuditLogFilters } from '../audit-log-filters';

/**
 * Exports the entries matching the filters as CSV, at most AUDIT_LOG_EXPORT_MAX_ROWS, paging
 * through the API with the same filters. The end of the range is pinned to when the export
 * started, so entries written meanwhile do not shift the pages. A failed page is shown by the
 * global handler and ends the export.
 */
export function useAuditLogExport(filters: AuditLogFilters) {
  const dispatch = useAppDispatch();
  const [exporting, setExporting] = useState(false);

  const exportCsv = useCallback(async () => {
    setExporting(true);
    const started = dayjs();
    try {
      const { entries, truncated } = await collectEntries(
        (skip, limit) =>
          dispatch(listAuditLogApi.endpoints.listAuditLog.initiate(toQuery(filters, skip, limit, started), { subscribe: false, forceRefetch: true })).unwrap(),
        AUDIT_LOG_EXPORT_MAX_ROWS,
        LIMITS.maxPageSize,
      );
      saveBlob(new Blob([auditEntriesToCsv(entries)], { type: 'text/csv;charset=utf-8' }), `audit-log-${started.format('YYYYMMDD-HHmmss')}.csv`);
      const count = entries.length.toLocaleString('en-GB');
      showToast(
        truncated
          ? {
              type: 'warning',
              title: `Exported the first ${count} entries`,
              description: `An export holds at most ${AUDIT_LOG_EXPORT_MAX_ROWS.toLocaleString('en-GB')} entries. Narrow the filters to export the rest.`,
              duration: 0,
            }
          : { type: 'success', title: `Exported ${count} ${entries.length === 1 ? 'entry' : 'entries'}` },
      );
    } catch {
      // The failed call has been shown by the global handler.
    } finally {
      setExporting(false);
    }
  }, [dispatch, filters]);

  return { exportCsv, exporting };
}
