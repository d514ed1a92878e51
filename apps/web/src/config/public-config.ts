import { ERROR_TRACE_SAMPLE_RATE } from './constants';
/**
 * Where the browser sends API calls. By default the page's own origin: Next.js forwards
 * `/api/v1/*` to the API (see `pages/api/v1/[...path].ts`), so one address serves both and no
 * CORS is needed. `NEXT_PUBLIC_API_BASE_URL` (fixed at build time) points the browser straight
 * at an API on another origin instead.
 */
export function apiBaseUrl(env: { NEXT_PUBLIC_API_BASE_URL?: string } = { NEXT_PUBLIC_API_BASE_URL: process.env.NEXT_PUBLIC_API_BASE_URL }): string {
  const configured = env.NEXT_PUBLIC_API_BASE_URL?.trim();
  return configured ? configured.replace(/\/+$/, '') : '';
}

/** The help centre is reached through this path, which redirects to HELP_CENTRE_URL at run time. */
export const HELP_CENTRE_PATH = '/api/help-centre';

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
