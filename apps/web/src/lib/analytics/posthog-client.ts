import posthog, { type CaptureResult, type PostHogConfig } from 'posthog-js';
import { ANALYTICS_FLUSH_INTERVAL_MS, ANALYTICS_IDLE_AFTER_MS } from '@/config/constants';
import { ANALYTICS_EVENTS, setAnalyticsClient, type AnalyticsClient } from './analytics';

/**
 * The app's own ingest path, forwarded to POSTHOG_HOST (same origin: CSP `connect-src 'self'`). It
 * sits under /api because a Next.js rewrite from a bare /ingest would put the client router's
 * rewrite matching (about 3 kB gzipped) into every page's first load.
 */
export const INGEST_PATH = '/api/ingest';

/** Events of posthog-js itself that may leave, besides the app's own. */
const SDK_EVENTS = new Set(['$pageview', '$pageleave', '$identify', '$snapshot', '$opt_in']);
/** Properties that identify a person or hold what they typed or saw. */
const PERSONAL_PROPERTIES = ['$set', '$set_once', '$unset', '$ip', '$el_text', '$elements', '$elements_chain', 'title'];
/** Where someone came from says nothing about the product and may name another site's page. */
const REFERRER = /referr/i;
/** Addresses and paths (`$current_url`, `$session_entry_url`, `$pathname`, …). */
const ADDRESS = /url|href|pathname/i;

/**
 * A URL without its query string and fragment, and with ids replaced: search boxes put names and
 * addresses in the query string, and ids say which cohort or workbench someone looked at.
 */
export function withoutPersonalParts(url: string): string {
  const cut = url.split(/[?#]/)[0] ?? '';
  return cut.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ':id');
}

/**
 * The last look at every event (posthog-js `before_send`): only the app's events and the SDK's
 * page views leave, without person properties, referrers or query strings.
 */
export function scrubAnalyticsEvent(event: CaptureResult | null): CaptureResult | null {
  if (!event) return null;
  if (!SDK_EVENTS.has(event.event) && !(ANALYTICS_EVENTS as readonly string[]).includes(event.event)) return null;
  const properties = { ...event.properties };
  for (const name of PERSONAL_PROPERTIES) delete properties[name];
  for (const [name, value] of Object.entries(properties)) {
    if (REFERRER.test(name)) delete properties[name];
    else if (ADDRESS.test(name) && typeof value === 'string') properties[name] = withoutPersonalParts(value);
  }
  const scrubbed: CaptureResult = { ...event, properties };
  delete scrubbed.$set;
  delete scrubbed.$set_once;
  return scrubbed;
}

/** posthog-js settings: spec §9's constants, no autocapture, profiles for identified users only. */
export function postHogConfig(options: { recording: boolean; apiHost?: string }): Partial<PostHogConfig> {
  return {
    api_host: options.apiHost ?? INGEST_PATH,
    person_profiles: 'identified_only',
    autocapture: false,
    capture_pageview: 'history_change',
    capture_pageleave: true,
    capture_dead_clicks: false,
    capture_heatmaps: false,
    capture_exceptions: false,
    capture_performance: false,
    rageclick: false,
    disable_surveys: true,
    disable_product_tours: true,
    disable_web_experiments: true,
    disable_conversations: true,
    // Nothing is fetched from PostHog's script host: CSP `script-src 'self'` holds.
    disable_external_dependency_loading: true,
    // Feature flags are not used; remote configuration is only needed for recordings.
    advanced_disable_flags: !options.recording,
    disable_session_recording: !options.recording,
    mask_all_text: true,
    mask_all_element_attributes: true,
    mask_personal_data_properties: true,
    save_referrer: false,
    request_queue_config: { flush_interval_ms: ANALYTICS_FLUSH_INTERVAL_MS },
    session_recording: {
      // Every text and input is masked: pages show counts and people's names.
      maskAllInputs: true,
      maskTextSelector: '*',
      session_idle_threshold_ms: ANALYTICS_IDLE_AFTER_MS,
    },
    before_send: scrubAnalyticsEvent,
  };
}

/** Starts posthog-js and installs it as the app's analytics client. */
export async function startPostHog(options: { key: string; recording: boolean; apiHost?: string }): Promise<void> {
  if (options.recording) await import('posthog-js/dist/recorder');
  posthog.init(options.key, postHogConfig(options));
  const client: AnalyticsClient = {
    capture: (event, properties) => void posthog.capture(event, properties),
    identify: (id) => posthog.identify(id),
    reset: () => posthog.reset(),
  };
  setAnalyticsClient(client);
}
