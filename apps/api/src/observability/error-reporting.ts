import type { FastifyRequest } from 'fastify';

/** Sends server errors to the error-reporting service. */
export interface ServerErrorReporter {
  /** Reports one 5xx answer: the error, the request id the client saw, the route, never the body. */
  report(error: unknown, request: FastifyRequest, statusCode: number): void;
  /** Sends what is queued; called on stop. */
  close(timeoutMs?: number): Promise<void>;
}

export interface SentrySettings {
  dsn: string;
  tracesSampleRate: number;
  environment?: string;
}

/** Headers whose values are credentials or identify a person. */
const SECRET_HEADERS = /^(authorization|cookie|set-cookie|proxy-authorization|x-api-key|x-forwarded-for|x-real-ip)$/i;
const EMAIL = /[\w.+-]+@[\w-]+(\.[\w-]+)+/g;
/** A JWT, a bearer credential, or a long opaque token (refresh tokens, invitation tokens). */
const TOKEN = /\b(eyJ[\w-]+\.[\w-]+\.[\w-]*|Bearer\s+\S+|[A-Za-z0-9_-]{40,})\b/g;

/** Removes e-mail addresses and tokens from free text (error messages, breadcrumbs). */
export function scrubText(text: string): string {
  return text.replace(EMAIL, '[email]').replace(TOKEN, '[token]');
}

type Scrubbable = {
  message?: string;
  request?: { headers?: Record<string, string>; cookies?: unknown; data?: unknown; query_string?: unknown; url?: string };
  exception?: { values?: { value?: string }[] };
  breadcrumbs?: { message?: string; data?: unknown }[];
  user?: { id?: string | number; email?: string; ip_address?: string | null; username?: string };
  extra?: Record<string, unknown>;
};

/**
 * The last look at an event before it leaves (`beforeSend`): no request body, cookies or query
 * string, no credential headers, no e-mail address or token in any message, and the user by
 * platform id only. Request bodies of this API carry health data (query trees) and credentials.
 */
export function scrubEvent<E extends Scrubbable>(event: E): E {
  if (event.message) event.message = scrubText(event.message);
  if (event.request) {
    delete event.request.cookies;
    delete event.request.data;
    delete event.request.query_string;
    if (event.request.url) event.request.url = event.request.url.split('?')[0];
    if (event.request.headers) {
      event.request.headers = Object.fromEntries(Object.entries(event.request.headers).filter(([name]) => !SECRET_HEADERS.test(name)));
    }
  }
  for (const value of event.exception?.values ?? []) if (value.value) value.value = scrubText(value.value);
  if (event.breadcrumbs) {
    event.breadcrumbs = event.breadcrumbs.map((crumb) => ({ ...crumb, message: crumb.message && scrubText(crumb.message), data: undefined }));
  }
  if (event.user) event.user = event.user.id === undefined ? {} : { id: event.user.id };
  delete event.extra;
  return event;
}

/** A path or URL's query string (search terms, e-mail addresses, tickets), wherever one appears in text. */
const QUERY_STRING = /(\/[^\s?#]*)\?[^\s#]*/g;
/** Span attributes that hold nothing but a query string. */
const QUERY_ATTRIBUTES = new Set(['url.query', 'http.query', 'query_string']);

/** Text without the query strings of the paths and URLs in it. */
export function withoutQueryStrings(text: string): string {
  return text.replace(QUERY_STRING, '$1');
}

type ScrubbableSpan = { name: string; attributes?: Record<string, unknown> };

/**
 * The last look at a trace's span before it leaves (`beforeSendSpan`): traces name and describe
 * requests by path (`url.path`, `url.full`, `http.target`, the span's name), and the query string
 * of a directory search, an audit-log search or a notebook's open link is not for the service.
 */
export function scrubSpan<S extends ScrubbableSpan>(span: S): S {
  span.name = withoutQueryStrings(span.name);
  if (span.attributes) {
    for (const [key, value] of Object.entries(span.attributes)) {
      if (QUERY_ATTRIBUTES.has(key)) delete span.attributes[key];
      else if (typeof value === 'string') span.attributes[key] = withoutQueryStrings(value);
      else if (Array.isArray(value)) span.attributes[key] = value.map((v: unknown) => (typeof v === 'string' ? withoutQueryStrings(v) : v));
    }
  }
  return span;
}

/**
 * Starts Sentry's Node SDK. Imported only when a DSN is set, so without one the API loads none of
 * it and adds nothing to any request.
 */
export async function startSentry(settings: SentrySettings, release?: string): Promise<ServerErrorReporter> {
  const Sentry = await import('@sentry/node');
  Sentry.init({
    dsn: settings.dsn,
    environment: settings.environment,
    release,
    tracesSampleRate: settings.tracesSampleRate,
    // Nothing about the person or the request beyond what report() sets: bodies hold health data
    // (query trees) and credentials, headers and cookies hold tokens.
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpHeaders: { request: { allow: ['user-agent', 'content-type', 'x-request-id'] }, response: false },
      httpBodies: [],
      urlQueryParams: false,
    },
    // Console lines would carry SQL and warehouse text. Fastify's integration names the traces by
    // route; its own error capture is off because report() sends each 5xx once, with the request id.
    integrations: (defaults) => [
      ...defaults.filter((integration) => !['Console', 'ContextLines', 'Fastify'].includes(integration.name)),
      Sentry.fastifyIntegration({ shouldHandleError: () => false }),
    ],
    beforeBreadcrumb: (crumb) => (crumb.category === 'console' ? null : crumb),
    beforeSend: (event) => scrubEvent(event),
    // Traces too: every span (the default streamed lifecycle), without query strings.
    beforeSendSpan: (span) => scrubSpan(span),
  });
  return {
    report(error, request, statusCode) {
      Sentry.withScope((scope) => {
        scope.setTag('request_id', request.id);
        scope.setTag('status_code', String(statusCode));
        scope.setTag('route', request.routeOptions.url ?? 'unknown');
        scope.setContext('request', {
          request_id: request.id,
          method: request.method,
          route: request.routeOptions.url ?? null,
          status: statusCode,
        });
        if (request.user) scope.setUser({ id: request.user.id });
        Sentry.captureException(error);
      });
    },
    async close(timeoutMs = 2000) {
      await Sentry.close(timeoutMs);
    },
  };
}
