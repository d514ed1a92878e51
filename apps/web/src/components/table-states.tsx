import type { ReactNode } from 'react';
import { LoadFailure } from './load-failure';

export interface TableStateOptions {
  /** The first page is still on its way (no data yet): the table's spinner shows, over nothing. */
  loading: boolean;
  /** The list could not be loaded, and there is no data to show. */
  error: unknown;
  /** "The users could not be loaded." */
  failureTitle: string;
  onRetry: () => void;
  retrying?: boolean;
  /** What an empty, successfully loaded list says. */
  empty: ReactNode;
}

/**
 * The `locale` of an antd Table that tells the truth: while the first page loads, its spinner sits
 * on a blank area (never on "No data"); a failed load shows the failure with Retry; only a list that
 * loaded and is empty shows the empty state.
 */
export function tableLocale({ loading, error, failureTitle, onRetry, retrying, empty }: TableStateOptions): { emptyText: ReactNode } {
  if (error) return { emptyText: <LoadFailure title={failureTitle} error={error} onRetry={onRetry} retrying={retrying} /> };
  if (loading) return { emptyText: <div aria-hidden style={{ minHeight: 96 }} /> };
  return { emptyText: empty };
}
