import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Request headers that describe one hop and must not be forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

/** How a request is forwarded to a service other than the API (the analytics and error-reporting services). */
export interface ForwardOptions {
  /** The path and query to ask for at the target (default: the request's own). */
  path?: string;
  /** Only these request headers go out, and no client address: the service gets no cookie or token. */
  onlyHeaders?: ReadonlySet<string>;
  /** The detail of the 502 when the target does not answer. */
  unreachable?: string;
}

/**
 * Forwards one request to the API unchanged (method, path with its trailing slash, query,
 * headers, streamed body) and streams the answer back. The API's address is read at run time,
 * which Next.js `rewrites` cannot do (they are fixed at build time).
 */
export function forwardToApi(req: IncomingMessage, res: ServerResponse, apiBaseUrl: string, options: ForwardOptions = {}): Promise<void> {
  const target = new URL(options.path ?? req.url ?? '/', apiBaseUrl);
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (HOP_BY_HOP.has(name) || value === undefined) continue;
    if (!options.onlyHeaders || options.onlyHeaders.has(name)) headers[name] = value;
  }
  const remote = req.socket.remoteAddress;
  if (!options.onlyHeaders) {
    if (remote) headers['x-forwarded-for'] = req.headers['x-forwarded-for'] ? `${String(req.headers['x-forwarded-for'])}, ${remote}` : remote;
    if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;
  }

  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const upstream = client.request(target, { method: req.method, headers }, (answer) => {
      const out: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (!HOP_BY_HOP.has(name) && value !== undefined) out[name] = value;
      }
      res.writeHead(answer.statusCode ?? 502, out);
      answer.pipe(res);
      answer.on('end', resolve);
      answer.on('error', () => {
        res.destroy();
        resolve();
      });
    });
    upstream.on('error', () => {
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: options.unreachable ?? 'The API is not reachable.' }));
      } else {
        res.destroy();
      }
      resolve();
    });
    req.pipe(upstream);
  });
}
