import { ERROR_TRACE_SAMPLE_RATE } from '@/config/constants';

/**
 * The browser's side of the analytics and error-reporting services, fixed at build time. Each is
 * off unless its variable is set, and then loaded after the page (it costs the first load nothing).
 */
export interface PublicServicesConfig {
  posthogKey?: string;
  /** Session recordings (every text and input masked); off unless NEXT_PUBLIC_POSTHOG_SESSION_RECORDING=true. */
  posthogRecording: boolean;
  sentryDsn?: string;
  sentryTracesSampleRate: number;
  sentryEnvironment?: string;
}

/** Reads the NEXT_PUBLIC_ service settings (written out so that Next.js inlines them). */
export function publicServicesConfig(
  env: Record<string, string | undefined> = {
    NEXT_PUBLIC_POSTHOG_KEY: process.env.NEXT_PUBLIC_POSTHOG_KEY,
    NEXT_PUBLIC_POSTHOG_SESSION_RECORDING: process.env.NEXT_PUBLIC_POSTHOG_SESSION_RECORDING,
    NEXT_PUBLIC_SENTRY_DSN: process.env.NEXT_PUBLIC_SENTRY_DSN,
    NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE: process.env.NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE,
    NEXT_PUBLIC_SENTRY_ENVIRONMENT: process.env.NEXT_PUBLIC_SENTRY_ENVIRONMENT,
  },
): PublicServicesConfig {
  const rate = Number(env.NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE);
  return {
    posthogKey: env.NEXT_PUBLIC_POSTHOG_KEY?.trim() || undefined,
    posthogRecording: env.NEXT_PUBLIC_POSTHOG_SESSION_RECORDING === 'true',
    sentryDsn: env.NEXT_PUBLIC_SENTRY_DSN?.trim() || undefined,
    sentryTracesSampleRate: env.NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE && rate >= 0 && rate <= 1 ? rate : ERROR_TRACE_SAMPLE_RATE,
    sentryEnvironment: env.NEXT_PUBLIC_SENTRY_ENVIRONMENT?.trim() || undefined,
  };
}
