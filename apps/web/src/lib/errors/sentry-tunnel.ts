import type { IncomingMessage, ServerResponse } from 'node:http';

/** Envelopes larger than this are refused (error events are a few kB; replays are not enabled). */
export const TUNNEL_MAX_BYTES = 1_000_000;

export interface SentryTarget {
  /** `<scheme>://<host>` of the DSN. */
  origin: string;
  projectId: string;
  publicKey: string;
  /** Where Sentry takes envelopes for this project. */
  envelopeUrl: string;
}

/** Reads a DSN (`https://<key>@<host>/<project>`); null when it is not one. */
export function parseDsn(dsn: string | undefined): SentryTarget | null {
  if (!dsn) return null;
  try {
    const url = new URL(dsn.trim());
    const segments = url.pathname.split('/').filter(Boolean);
    const projectId = segments.pop();
    if (!url.username || !projectId || !/^\d+$/.test(projectId)) return null;
    const prefix = segments.length ? `/${segments.join('/')}` : '';
    return { origin: url.origin, projectId, publicKey: url.username, envelopeUrl: `${url.origin}${prefix}/api/${projectId}/envelope/` };
  } catch {
    return null;
  }
}

/** The DSN the tunnel forwards to, read at run time: SENTRY_DSN, else the browser's NEXT_PUBLIC_SENTRY_DSN. */
export function tunnelTarget(env: NodeJS.ProcessEnv = process.env): SentryTarget | null {
  return parseDsn(env['SENTRY_DSN'] || env['NEXT_PUBLIC_SENTRY_DSN']);
}

function answer(res: ServerResponse, status: number, detail: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ detail }));
}

/**
 * The same-origin tunnel of the browser SDK (its `tunnel` option): takes an envelope, checks that
 * it is meant for the configured project (so the app cannot be used to post to anyone else) and
 * posts it to Sentry. The browser's cookies and address are not passed on.
 */
export async function forwardEnvelope(req: IncomingMessage, res: ServerResponse, target: SentryTarget | null = tunnelTarget()): Promise<void> {
  if (!target) return answer(res, 404, 'Error reporting is not configured (SENTRY_DSN).');
  if (req.method !== 'POST') return answer(res, 405, 'Send envelopes with POST.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > TUNNEL_MAX_BYTES) return answer(res, 413, `The envelope is larger than ${TUNNEL_MAX_BYTES} bytes.`);
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks);
  const firstLine = body.subarray(0, Math.max(0, body.indexOf(0x0a)) || body.length).toString('utf8');
  let dsn: SentryTarget | null = null;
  try {
    dsn = parseDsn((JSON.parse(firstLine) as { dsn?: string }).dsn);
  } catch {
    return answer(res, 400, 'The body is not a Sentry envelope.');
  }
  if (!dsn || dsn.origin !== target.origin || dsn.projectId !== target.projectId || dsn.publicKey !== target.publicKey) {
    return answer(res, 400, 'The envelope is not for this application’s project.');
  }
  try {
    const upstream = await fetch(target.envelopeUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-sentry-envelope' },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  } catch {
    answer(res, 502, 'The error-reporting service is not reachable.');
  }
}
