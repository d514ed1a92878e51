import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../app-services';

/** A request at least this slow is logged under ACCESS_LOG=errors too. */
export const SLOW_REQUEST_MS = 1000;

/**
 * One line per request, written once the answer is sent (Fastify's own request logging, two lines
 * per request, is off). ACCESS_LOG chooses which requests: `all`, `errors` (status 400 and above,
 * and slow ones) or `off`. Every change and denial is in the audit log whatever this says.
 */
export function registerAccessLog(app: FastifyInstance, { config, accessLog }: Pick<AppServices, 'config' | 'accessLog'>): void {
  if (config.accessLog === 'off') return;
  const all = config.accessLog === 'all';
  app.addHook('onResponse', (request, reply, done) => {
    const ms = reply.elapsedTime;
    if (all || reply.statusCode >= 400 || ms >= SLOW_REQUEST_MS) {
      accessLog.info(
        { reqId: request.id, method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(ms) },
        'request completed',
      );
    }
    done();
  });
}
