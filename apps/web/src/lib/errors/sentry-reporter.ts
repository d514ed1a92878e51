import * as Sentry from '@sentry/nextjs';
import { scrubReportContext, scrubText, scrubUrl, scrubValue } from './report-scrubbing';
import { setErrorReporter, type ErrorReporter } from './error-reporter';

/** Envelopes go to the app's own origin, which forwards them (CSP `connect-src 'self'`, no ad-blocker losses). */
export const SENTRY_TUNNEL_PATH = '/api/monitoring';

type BrowserEvent = Parameters<NonNullable<Sentry.BrowserOptions['beforeSend']>>[0];

/**
 * The last look at an event before it leaves: no cookies, headers, query strings or request
 * bodies; no address or token in any message, breadcrumb or context; the user by id only.
 */
export function scrubBrowserEvent<E extends BrowserEvent>(event: E): E {
  if (event.message) event.message = scrubText(event.message);
  for (const value of event.exception?.values ?? []) if (value.value) value.value = scrubText(value.value);
  if (event.request) event.request = { url: scrubUrl(event.request.url) };
  if (event.user) event.user = event.user.id === undefined ? {} : { id: event.user.id };
  if (event.contexts) event.contexts = scrubValue(event.contexts) as E['contexts'];
  if (event.extra) event.extra = scrubValue(event.extra) as E['extra'];
  if (event.breadcrumbs) {
    event.breadcrumbs = event.breadcrumbs.map((crumb) => ({
      ...crumb,
      message: crumb.message && scrubText(crumb.message),
      data: crumb.data && { ...scrubValue(crumb.data) as object, ...(typeof crumb.data.url === 'string' && { url: scrubUrl(crumb.data.url) }) },
    }));
  }
  return event;
}

export interface WebSentrySettings {
  dsn: string;
  tracesSampleRate: number;
  environment?: string;
  /** The tunnel's address (default: the app's own `/api/monitoring`). */
  tunnel?: string;
}

/** Starts Sentry in the browser and installs it as the app's error reporter. */
export function startSentry(settings: WebSentrySettings): ErrorReporter {
  Sentry.init({
    dsn: settings.dsn,
    tunnel: settings.tunnel ?? SENTRY_TUNNEL_PATH,
    environment: settings.environment,
    tracesSampleRate: settings.tracesSampleRate,
    dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [], urlQueryParams: false },
    integrations: [Sentry.browserTracingIntegration()],
    // Console lines hold whatever a component logged, including the failed calls' full context.
    beforeBreadcrumb: (crumb) => (crumb.category === 'console' ? null : crumb),
    beforeSend: (event) => scrubBrowserEvent(event),
  });
  const reporter: ErrorReporter = {
    report(error, context) {
      const safe = scrubReportContext(context);
      Sentry.withScope((scope) => {
        scope.setTag('endpoint', safe.endpoint);
        scope.setTag('status', String(safe.status));
        if (safe.method) scope.setTag('method', safe.method);
        scope.setContext('failed_call', { ...safe });
        Sentry.captureException(error);
      });
    },
  };
  setErrorReporter(reporter);
  return reporter;
}

/** Ties later reports to the signed-in user, by platform id only. */
export function setSentryUser(platformUserId: string | null): void {
  Sentry.setUser(platformUserId ? { id: platformUserId } : null);
}

/** Sends what is queued (tests, page unload). */
export function flushSentry(timeoutMs = 2000): Promise<boolean> {
  return Sentry.flush(timeoutMs);
}
