import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';

type HeaderPairs = ReadonlyArray<readonly [string, string]>;

/** The router's own refusals, in words that do not echo the (possibly huge) path back. */
const ROUTER_ERROR: Record<string, (maxParamLength: number) => [number, string]> = {
  FST_ERR_BAD_URL: () => [400, 'The URL is not valid: part of its path is not well-formed percent-encoding.'],
  FST_ERR_MAX_PARAM_LENGTH: (max) => [414, `A path parameter is longer than ${max} characters.`],
};

/**
 * Refusals the router makes before any route or hook runs (bad percent-encoding, an over-long
 * path parameter): answered like every other error, `{ "detail": ... }` with the security headers.
 */
export function routerErrorHandler(securityHeaders: HeaderPairs, maxParamLength: number): NonNullable<FastifyServerOptions['frameworkErrors']> {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const [status, detail] = ROUTER_ERROR[error.code]?.(maxParamLength) ?? [400, 'The request could not be routed.'];
    for (const [name, value] of securityHeaders) reply.header(name, value);
    reply.header('x-request-id', request.id);
    void reply.code(status).send({ detail });
  };
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers or URL too large,
 * malformed request lines, unknown methods): a `{ "detail": ... }` answer with the security
 * headers, written straight to the socket as Node's own handler would, then the socket closed.
 */
export function clientErrorHandler(securityHeaders: HeaderPairs) {
  const headerLines = securityHeaders.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return function onClientError(error: Error & { code?: string }, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, detail] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'The request line or headers are too large (the query string counts).']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'The request took too long to arrive.']
          : [400, 'The request is not valid HTTP.'];
    const body = JSON.stringify({ detail });
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headerLines}content-type: application/json; charset=utf-8\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}

/** Turns a route pattern (`/api/v1/users/:userId/`, `/docs/*`) into an anchored expression. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/**
 * Answers a request no route took: 405 with `Allow` when the path exists with other methods
 * (HEAD on a POST-only route included), 404 otherwise; both with a `detail`. Every route's pattern
 * is collected as it is registered, so routes added later are covered too.
 */
export function registerUnmatchedRoutes(app: FastifyInstance): void {
  const routes = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  app.addHook('onRoute', (route) => {
    const entry = routes.get(route.url) ?? { pattern: patternOf(route.url), methods: new Set<string>() };
    for (const method of [route.method].flat()) entry.methods.add(method);
    if (entry.methods.has('GET')) entry.methods.add('HEAD');
    routes.set(route.url, entry);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = new Set<string>();
    for (const { pattern, methods } of routes.values()) if (pattern.test(path)) for (const method of methods) allowed.add(method);
    if (allowed.size > 0) {
      const allow = [...allowed].sort().join(', ');
      return reply.code(405).header('allow', allow).send({ detail: `${request.method} is not allowed here; this path allows ${allow}.` });
    }
    return reply.code(404).send({ detail: `No such route: ${request.method} ${path.length > 200 ? `${path.slice(0, 200)}…` : path}` });
  });
}
