import type { PublicServicesConfig } from './public-services-config';
import { expectAnalyticsClient, identifyUser, resetAnalytics } from '@/lib/analytics/analytics';

type SentryModule = typeof import('@/lib/errors/sentry-reporter');

let sentry: Promise<SentryModule> | null = null;
let analyticsStarted = false;

/**
 * Starts the configured services, each from its own chunk loaded after the page: without their
 * variables nothing is loaded, and with them the first load is no heavier.
 */
export function startThirdPartyServices(config: PublicServicesConfig): void {
  if (config.sentryDsn && !sentry) {
    const dsn = config.sentryDsn;
    sentry = import('@/lib/errors/sentry-reporter').then((module) => {
      module.startSentry({ dsn, tracesSampleRate: config.sentryTracesSampleRate, environment: config.sentryEnvironment });
      return module;
    });
  }
  if (config.posthogKey && !analyticsStarted) {
    analyticsStarted = true;
    expectAnalyticsClient();
    const key = config.posthogKey;
    void import('@/lib/analytics/posthog-client').then((module) => module.startPostHog({ key, recording: config.posthogRecording }));
  }
}

/** Tells the services who is signed in, by platform user id only (null: nobody). */
export function identifyToServices(platformUserId: string | null): void {
  if (platformUserId) identifyUser(platformUserId);
  else resetAnalytics();
  void sentry?.then((module) => module.setSentryUser(platformUserId));
}
