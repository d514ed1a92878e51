import { ROUTE_SPINNER_SIZE } from '@/config/constants';

/** A spinner over the whole page (size 80), on a scrim. */
export function FullPageSpinner({ label = 'Loading', testId }: { label?: string; testId?: string }) {
  return (
    <div role="status" aria-live="polite" aria-label={label} data-testid={testId} className="hdp-full-page-spinner">
      <span className="hdp-spinner" style={{ width: ROUTE_SPINNER_SIZE, height: ROUTE_SPINNER_SIZE, borderWidth: 6 }} aria-hidden />
    </div>
  );
}
