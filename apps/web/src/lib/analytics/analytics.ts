/**
 * Product analytics as the app uses it: a handful of named events with a few yes/no or kind
 * properties, and the user identified by platform id. Nothing else can be sent: no query trees,
 * counts, names, e-mail addresses or free text. Off (a no-op) until a client is installed, which
 * happens only when NEXT_PUBLIC_POSTHOG_KEY is set.
 */

/** The product's main actions. */
export const ANALYTICS_EVENTS = ['query_run', 'cohort_created', 'cohort_published', 'workbench_created', 'notebook_started'] as const;
export type AnalyticsEvent = (typeof ANALYTICS_EVENTS)[number];

/**
 * The only properties an event may carry, each with the values it may take. Anything else is
 * dropped before it reaches the client.
 */
export const ANALYTICS_PROPERTIES = {
  /** query_run: a saved query's job (true) or an unsaved run (false). */
  saved: [true, false],
  /** notebook_started: the environment kind, never its name. */
  environment: ['python', 'r', 'other'],
} as const;
export type AnalyticsProperties = { [K in keyof typeof ANALYTICS_PROPERTIES]?: (typeof ANALYTICS_PROPERTIES)[K][number] };

/** What the analytics service offers; posthog-client.ts adapts posthog-js to it. */
export interface AnalyticsClient {
  capture(event: AnalyticsEvent, properties: AnalyticsProperties): void;
  identify(platformUserId: string): void;
  reset(): void;
}

let client: AnalyticsClient | null = null;
const waiting: Array<(c: AnalyticsClient) => void> = [];
/** Events raised before the lazily loaded client arrives are kept, up to this many. */
const MAX_WAITING = 50;
let expectingClient = false;

/** Keeps only the allowed properties with allowed values. */
export function allowedProperties(properties: Record<string, unknown> = {}): AnalyticsProperties {
  const kept: Record<string, unknown> = {};
  for (const [name, allowed] of Object.entries(ANALYTICS_PROPERTIES)) {
    const value = properties[name];
    if ((allowed as readonly unknown[]).includes(value)) kept[name] = value;
  }
  return kept as AnalyticsProperties;
}

function whenReady(action: (c: AnalyticsClient) => void): void {
  if (client) action(client);
  else if (expectingClient && waiting.length < MAX_WAITING) waiting.push(action);
}

/** Records one of the product's main actions. A no-op when analytics is off. */
export function track(event: AnalyticsEvent, properties?: AnalyticsProperties): void {
  if (!ANALYTICS_EVENTS.includes(event)) return;
  const safe = allowedProperties(properties);
  whenReady((c) => c.capture(event, safe));
}

/** Ties later events to the signed-in user, by platform user id only. */
export function identifyUser(platformUserId: string): void {
  whenReady((c) => c.identify(platformUserId));
}

/** Forgets the user (sign-out). */
export function resetAnalytics(): void {
  whenReady((c) => c.reset());
}

/** Says a client is being loaded, so that events raised meanwhile wait for it. */
export function expectAnalyticsClient(): void {
  expectingClient = true;
}

/** Installs the client (or removes it with null); waiting events are sent now. */
export function setAnalyticsClient(next: AnalyticsClient | null): void {
  client = next;
  expectingClient = next !== null;
  if (next) waiting.splice(0).forEach((action) => action(next));
  else waiting.length = 0;
}
