import type { IncomingMessage } from 'node:http';
import querystring from 'node:querystring';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import replyFrom from '@fastify/reply-from';
import { WebSocket, WebSocketServer } from 'ws';
import type { NotebookUpstream } from './runtime/runtime-driver';
import { upstreamWebSocketAddress } from './runtime/notebook-socket';
import type { NotebookSession, NotebookSessions } from './notebook-sessions';
import type { ProxyActivity } from './proxy-activity';
import { ApiError } from '../http/api-error';
import { attachmentDisposition } from '../http/content-disposition';
import { openHomeFile } from './home-files';

/** Where notebooks are served: the proxy's public path and the Jupyter server's base URL alike. */
export const NOTEBOOK_PROXY_PREFIX = '/jupyter';
/** The session cookie; its path scopes it to one notebook. */
export const NOTEBOOK_COOKIE = 'hdp_notebook';

const NOTEBOOK_PATH = /^\/jupyter\/([A-Za-z0-9-]{1,64})\//;
const CLOSE_CODES_ALLOWED = (code: number) => code === 1000 || (code >= 3000 && code <= 4999);

/** The base path of one notebook. */
export function notebookBasePath(notebookId: string): string {
  return `${NOTEBOOK_PROXY_PREFIX}/${notebookId}/`;
}

export interface NotebookProxyOptions {
  sessions: NotebookSessions;
  activity: ProxyActivity;
  upstream: (notebookId: string) => NotebookUpstream | undefined;
  /**
   * Asked on every request with the session's user: may they still use this notebook? (Removed
   * from the workbench, notebook deleted.) The caller caches its answer briefly.
   */
  mayUse?: (session: NotebookSession) => Promise<boolean>;
  /** Origins whose pages may open the kernel WebSockets (the API's own public origin). */
  allowedOrigins: string[];
  /** Whether the cookie is sent over HTTPS only. */
  secureCookie: boolean;
}

/** The value of one cookie in a Cookie header. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

/** The Cookie header without the platform's session cookie, which Jupyter has no use for. */
function withoutSessionCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const kept = header.split(';').filter((part) => part.split('=')[0]?.trim() !== NOTEBOOK_COOKIE);
  return kept.length ? kept.join(';').trim() : undefined;
}

function isHtml(contentType: unknown): boolean {
  return typeof contentType === 'string' && contentType.startsWith('text/html');
}

async function collect(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A file of the notebook's home asked for by Jupyter's `/files/` URL, sent by the platform itself
 * when the runtime keeps the home on this machine: one hop instead of two (see openHomeFile for
 * which files, and why it is safe). Answers false when the request is for Jupyter to answer.
 */
async function sendHomeFile(request: FastifyRequest<{ Params: { notebookId: string } }>, reply: FastifyReply, homeDir: string): Promise<boolean> {
  const url = request.raw.url ?? '';
  const filesPrefix = `${notebookBasePath(request.params.notebookId)}files/`;
  if (!url.startsWith(filesPrefix)) return false;
  const queryAt = url.indexOf('?');
  let relative: string;
  try {
    relative = decodeURIComponent(url.slice(filesPrefix.length, queryAt < 0 ? undefined : queryAt));
  } catch {
    return false;
  }
  const file = await openHomeFile(homeDir, relative);
  if (!file) return false;
  // Jupyter's `download` argument: any value asks for an attachment.
  const download = queryAt >= 0 && new URLSearchParams(url.slice(queryAt + 1)).has('download');
  reply
    .header('content-type', file.contentType)
    .header('content-length', file.size)
    .header('last-modified', file.modified.toUTCString())
    .header('cache-control', 'no-cache');
  if (download) reply.header('content-disposition', attachmentDisposition(file.name));
  if (request.method === 'HEAD') {
    await file.close();
    reply.send();
  } else {
    reply.send(file.stream);
  }
  return true;
}

function unixUrl(upstream: NotebookUpstream, requestUrl: string): string {
  return `unix+http://${querystring.escape(upstream.socketPath)}${requestUrl}`;
}

/**
 * The notebook proxy: HTTP through @fastify/reply-from and the kernel WebSockets through `ws`, to
 * the notebook's Unix socket, with `Host: localhost` and the Jupyter token added on the way. The
 * browser proves itself with the notebook's session cookie, set by the open URL.
 */
export async function registerNotebookProxy(app: FastifyInstance, options: NotebookProxyOptions): Promise<void> {
  const { sessions, activity } = options;

  async function admit(notebookId: string, cookieHeader: string | undefined): Promise<NotebookUpstream> {
    const session = sessions.verify(cookieValue(cookieHeader, NOTEBOOK_COOKIE), notebookId);
    if (!session || (options.mayUse && !(await options.mayUse(session)))) {
      throw new ApiError(401, 'Open this notebook from its workbench: this browser has no session for it.');
    }
    const upstream = options.upstream(notebookId);
    if (!upstream) throw new ApiError(503, 'The notebook is not running. Start it from its workbench.');
    activity.touch(notebookId);
    return upstream;
  }

  await app.register(async (proxy) => {
    // Bodies pass through untouched (notebooks are saved as JSON larger than the API's body limit).
    proxy.removeAllContentTypeParsers();
    proxy.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    await proxy.register(replyFrom, { http: { requestOptions: { timeout: 120_000 } }, disableRequestLogging: true });

    const access = { public: true } as const;
    proxy.get<{ Params: { notebookId: string }; Querystring: { ticket?: string } }>(
      `${NOTEBOOK_PROXY_PREFIX}/:notebookId/_open`,
      { config: { access }, schema: { hide: true } },
      async (request, reply) => {
        const { notebookId } = request.params;
        const redeemed = request.query.ticket ? sessions.redeem(request.query.ticket, notebookId) : undefined;
        if (!redeemed) throw new ApiError(403, 'This link was used already or has expired. Open the notebook again from its workbench.');
        const base = notebookBasePath(notebookId);
        const cookie = [
          `${NOTEBOOK_COOKIE}=${redeemed.sessionId}`,
          `Path=${base}`,
          `Max-Age=${sessions.sessionTtlSeconds()}`,
          'HttpOnly',
          'SameSite=Strict',
          ...(options.secureCookie ? ['Secure'] : []),
        ].join('; ');
        // A page rather than a redirect: a Strict cookie set during a navigation that began on
        // another site is not sent on that navigation's redirect, but is on the page's own.
        const target = `${base}tree`;
        return reply
          .header('set-cookie', cookie)
          .header('referrer-policy', 'no-referrer')
          .type('text/html; charset=utf-8')
          .send(
            `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${target}">` +
              `<title>Opening notebook…</title></head><body><p><a href="${target}">Open the notebook</a></p></body></html>`,
          );
      },
    );

    const forward = async (request: FastifyRequest<{ Params: { notebookId: string } }>, reply: FastifyReply) => {
      const upstream = await admit(request.params.notebookId, request.headers.cookie);
      if ((request.method === 'GET' || request.method === 'HEAD') && upstream.homeDir) {
        const served = await sendHomeFile(request, reply, upstream.homeDir);
        if (served) return reply;
      }
      return reply.from(unixUrl(upstream, request.raw.url ?? '/'), {
        rewriteRequestHeaders: (_original, headers) => {
          const rewritten: Record<string, string | string[] | undefined> = { ...headers, host: 'localhost', authorization: `token ${upstream.token}` };
          // Jupyter compares Origin and Referer with Host: the platform checked the session instead.
          delete rewritten.origin;
          delete rewritten.referer;
          const cookie = withoutSessionCookie(headers.cookie);
          if (cookie) rewritten.cookie = cookie;
          else delete rewritten.cookie;
          return rewritten as typeof headers;
        },
        rewriteHeaders: (headers) => {
          if (!isHtml(headers['content-type'])) return headers;
          // The page is rewritten below, so its length changes.
          const rewritten = { ...headers };
          delete rewritten['content-length'];
          return rewritten;
        },
        onResponse: (_request, response, raw) => {
          if (!isHtml(response.getHeader('content-type'))) return response.send(raw.stream);
          // Jupyter writes its token into every page (for its scripts' API calls); the proxy adds
          // the token itself, so the page goes out without it.
          collect(raw.stream).then(
            (page) => response.send(page.replaceAll(`?token=${upstream.token}`, '').replaceAll(upstream.token, '')),
            (error: unknown) => response.send(error),
          );
        },
      });
    };
    const route = { config: { access }, schema: { hide: true } };
    proxy.all(`${NOTEBOOK_PROXY_PREFIX}/:notebookId/`, route, forward);
    proxy.all(`${NOTEBOOK_PROXY_PREFIX}/:notebookId/*`, route, forward);
  });

  const websockets = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const match = NOTEBOOK_PATH.exec(request.url ?? '');
    const refuse = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (!match) return refuse(404, 'Not Found');
    const notebookId = match[1]!;
    const origin = request.headers.origin;
    // Cross-site WebSocket hijacking: a page elsewhere must not drive the kernel with the cookie.
    if (origin && !options.allowedOrigins.includes(origin)) return refuse(403, 'Forbidden');
    admit(notebookId, request.headers.cookie).then(
      (upstream) => connectUpstream(request, socket, head, upstream, notebookId, refuse),
      (error: unknown) => {
        const status = error instanceof ApiError ? error.statusCode : 500;
        refuse(status, status === 503 ? 'Service Unavailable' : status === 401 ? 'Unauthorized' : 'Internal Server Error');
      },
    );
  };

  /**
   * The Jupyter side is opened first and the browser's handshake completed only once it has
   * succeeded, so that a refusal upstream (an unknown kernel) reaches the browser as a refusal.
   */
  function connectUpstream(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    upstream: NotebookUpstream,
    notebookId: string,
    refuse: (status: number, text: string) => void,
  ): void {
    // The request path is never spliced into the socket's address as it came (dot segments).
    const address = upstreamWebSocketAddress(upstream.socketPath, request.url ?? '');
    if (!address) return refuse(400, 'Bad Request');
    const server = new WebSocket(address, {
      headers: { host: 'localhost', authorization: `token ${upstream.token}` },
      perMessageDeflate: false,
    });
    server.once('unexpected-response', (_request, response) => {
      refuse(response.statusCode ?? 502, response.statusMessage ?? 'Bad Gateway');
      server.terminate();
    });
    server.once('error', () => refuse(502, 'Bad Gateway'));
    server.once('open', () => {
      server.removeAllListeners('error');
      websockets.handleUpgrade(request, socket, head, (client) => bridge(client, server, notebookId));
    });
  }

  function bridge(client: WebSocket, server: WebSocket, notebookId: string): void {
    activity.opened(notebookId);
    client.on('message', (data, binary) => {
      activity.touch(notebookId);
      if (server.readyState === WebSocket.OPEN) server.send(data, { binary });
    });
    server.on('message', (data, binary) => {
      activity.touch(notebookId);
      if (client.readyState === WebSocket.OPEN) client.send(data, { binary });
    });
    let closed = false;
    const closeBoth = (code?: number, reason?: Buffer) => {
      if (closed) return;
      closed = true;
      activity.closed(notebookId);
      for (const end of [client, server]) {
        if (end.readyState === WebSocket.OPEN) end.close(code && CLOSE_CODES_ALLOWED(code) ? code : 1000, reason);
        else if (end.readyState === WebSocket.CONNECTING) end.terminate();
      }
    };
    client.on('close', (code, reason) => closeBoth(code, reason));
    server.on('close', (code, reason) => closeBoth(code, reason));
    client.on('error', () => closeBoth(1011));
    server.on('error', () => closeBoth(1011));
  }

  app.server.on('upgrade', onUpgrade);
  app.addHook('onClose', (_instance, done) => {
    app.server.off('upgrade', onUpgrade);
    for (const client of websockets.clients) client.terminate();
    websockets.close(() => done());
  });
}
