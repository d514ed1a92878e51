import { isFulfilled, type UnknownAction } from '@reduxjs/toolkit';
import { track, type AnalyticsEvent, type AnalyticsProperties } from './analytics';

type Tracked = { event: AnalyticsEvent; properties?: AnalyticsProperties } | null;

/**
 * Which successful calls are product events: the contract's route ids, so workbench and
 * notebook calls are tracked as soon as their endpoints exist. Arguments are read only to pick
 * the event; they are never sent.
 */
export const TRACKED_CALLS: Record<string, (args: unknown) => Tracked> = {
  executeAnonymousQuery: () => ({ event: 'query_run', properties: { saved: false } }),
  executeQuery: () => ({ event: 'query_run', properties: { saved: true } }),
  createCohort: () => ({ event: 'cohort_created' }),
  updateCohort: (args) => ((args as { status?: string } | undefined)?.status === 'PUBLISHED' ? { event: 'cohort_published' } : null),
  createWorkbench: () => ({ event: 'workbench_created' }),
  startNotebook: () => ({ event: 'notebook_started' }),
};

/**
 * The listener that sends the product event of each successful tracked call. It is added to the
 * store's listener middleware at run time (`addListener`) by the analytics starter, so a build
 * without analytics carries none of this.
 */
export const trackSuccessfulCalls = {
  matcher: isFulfilled,
  effect: (action: UnknownAction) => {
    const arg = (action.meta as { arg?: { endpointName?: string; originalArgs?: unknown; type?: string } } | undefined)?.arg;
    const pick = arg?.endpointName && arg.type === 'mutation' ? TRACKED_CALLS[arg.endpointName] : undefined;
    const tracked = pick?.(arg!.originalArgs);
    if (tracked) track(tracked.event, tracked.properties);
  },
};
